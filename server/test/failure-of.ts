// The error a provider call failed with, for tests that assert how it failed: the promise must
// reject with an error of the given kind; resolving, or another error, fails the test. And the
// check every adapter's tests make of it: no key anywhere a log could show it.
import { expect } from 'vitest';

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

/** Neither key is in the error's detail, message or stack. */
export function expectNoKeys(error: Error & { detail: string }, keys: string[]): void {
  for (const text of [error.detail, error.message, String(error.stack)])
    for (const key of keys) expect(text).not.toContain(key);
}
