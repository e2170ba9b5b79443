// Work run one after another per key (a player) in this process. A big write goes in pieces, each
// its own transaction, so writes side by side would each count the others' half-written text
// against the storage quota and could all be refused where one at a time two would fit; nor does
// one player gain by sending ten at once.

/** A queue per key: `run(key, work)` starts `work` once the key's earlier work has settled. */
export function createOneAtATime() {
  const running = new Map<number, Promise<unknown>>();
  return async function oneAtATime<T>(key: number, work: () => Promise<T>): Promise<T> {
    const before = running.get(key) ?? Promise.resolve();
    const mine = before.catch(() => undefined).then(work);
    running.set(key, mine);
    try {
      return await mine;
    } finally {
      if (running.get(key) === mine) running.delete(key);
    }
  };
}
