// The memory bank's scheduling, against a recording stand-in for its repository: a few stories are
// indexed at once and the rest wait their turn, each story once at a time, and a story asked for
// again while it runs is run once more after.
import { describe, expect, it } from 'vitest';
import type { UnindexedMessage } from '@server/db/repositories/memory-bank';
import { createMemoryBank, INDEX_CONCURRENCY } from './memory-bank';

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** A repository whose reads wait until the test lets them go, recording how many run at once. */
function gatedRepository() {
  const gates: Array<() => void> = [];
  const state = { running: 0, most: 0, reads: [] as number[], saved: [] as number[], applied: [] as number[] };
  const memoryBank = {
    async unindexed(storyId: number): Promise<UnindexedMessage[]> {
      state.reads.push(storyId);
      state.running += 1;
      state.most = Math.max(state.most, state.running);
      await new Promise<void>((resolve) => gates.push(resolve));
      state.running -= 1;
      return [
        { id: storyId * 10, version: 1, turn: 1, role: 'assistant', content: `The lantern of story ${storyId}.` },
      ];
    },
    async savePassages(storyId: number) {
      state.saved.push(storyId);
    },
    async applyDeltas(storyId: number) {
      state.applied.push(storyId);
      return 0;
    },
  };
  /** Lets every waiting read go, a turn of the event loop at a time, until nothing waits. */
  async function drain() {
    for (let rounds = 0; rounds < 100; rounds += 1) {
      await new Promise((resolve) => setImmediate(resolve));
      const open = gates.splice(0);
      if (open.length === 0 && state.running === 0) return;
      for (const go of open) go();
    }
  }
  return { memoryBank, state, drain };
}

describe('memory bank scheduling', () => {
  it(`indexes at most ${INDEX_CONCURRENCY} stories at once, and every story asked for in the end`, async () => {
    const { memoryBank, state, drain } = gatedRepository();
    const bank = createMemoryBank({ repos: { memoryBank } as never, log: quiet });
    for (let storyId = 1; storyId <= 7; storyId += 1) bank.index(storyId, 'all');
    await new Promise((resolve) => setImmediate(resolve));
    expect(state.reads).toEqual([1, 2].slice(0, INDEX_CONCURRENCY));
    await drain();
    await bank.idle();
    expect(state.most).toBe(INDEX_CONCURRENCY);
    expect([...state.saved].sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect([...state.applied].sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
    // Waiting stories run in the order they were asked for.
    expect(state.reads).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('runs a story asked for again while it is indexed once more after, not twice at once', async () => {
    const { memoryBank, state, drain } = gatedRepository();
    const bank = createMemoryBank({ repos: { memoryBank } as never, log: quiet });
    bank.index(1, 'all');
    bank.index(1, 'all');
    bank.index(1, 'statistics');
    await drain();
    await bank.idle();
    expect(state.most).toBe(1);
    expect(state.reads).toEqual([1, 1]);
    expect(state.applied).toEqual([1, 1]);
  });

  it('frees its slot when a story fails, and logs the failure', async () => {
    const warnings: string[] = [];
    const { memoryBank, state, drain } = gatedRepository();
    const failing = {
      ...memoryBank,
      async savePassages(storyId: number) {
        if (storyId <= INDEX_CONCURRENCY) throw new Error('disk full');
        state.saved.push(storyId);
      },
    };
    const bank = createMemoryBank({
      repos: { memoryBank: failing } as never,
      log: { ...quiet, warn: (_object, message) => warnings.push(message) },
    });
    for (let storyId = 1; storyId <= INDEX_CONCURRENCY + 2; storyId += 1) bank.index(storyId, 'all');
    await drain();
    await bank.idle();
    expect(state.saved).toEqual([INDEX_CONCURRENCY + 1, INDEX_CONCURRENCY + 2]);
    expect(warnings).toHaveLength(INDEX_CONCURRENCY);
    expect(warnings[0]).toContain('memory bank indexing failed');
  });
});
