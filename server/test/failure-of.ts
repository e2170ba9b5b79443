// The error a provider call failed with, for tests that assert how it failed: the promise must
// reject with an error of the given kind; resolving, or another error, fails the test.

export async function failureOf<E extends Error>(
  promise: Promise<unknown>,
  kind: abstract new (...args: never[]) => E,
): Promise<E> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (error instanceof kind) return error;
  throw new Error(`expected a ${kind.name}, got ${String(error)}`);
}
