// The memory bank's indexing. Recall looks only before the verbatim window, so a message is needed
// in the bank once a fold has taken it out of the window: after each fold (and after an edit, a
// version chosen, a branch or an import), the story's shown messages that have no passages for the
// version they show are cut into passages (passages.ts) and written, off the turn's critical path, a
// batch at a time with a turn of the event loop between batches; then the story's term statistics
// take in what changed. A turn costs the bank nothing until its story folds, and a fold's batch
// shares the upkeep of words its turns have in common. With embeddings, the new passages are then
// embedded (vector-recall.ts). A failure is logged and caught up by a later run; one story is indexed
// by one job at a time, and a few stories at once (INDEX_CONCURRENCY), so that a wave of folds does
// not queue the turns' own statements behind its writes.
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Repositories } from '@server/db/repositories';
import type { Log } from '@server/kernel/log';
import { passagesOf } from './passages';
import type { VectorRecall } from './vector-recall';

/** Messages read and written per batch (on PGlite, bench:soak: about 4.6 ms of its thread a batch). */
export const INDEX_BATCH = 40;
/** Batches per catch-up: an imported story of thousands of messages is indexed over a few runs. */
export const INDEX_BATCHES_PER_RUN = 25;
/**
 * Stories indexed at once in this process; the others wait their turn. Folds come in waves (players
 * who started together fold together), and a wave's writes all at once would queue every turn's
 * statements behind them on PGlite's one thread: a few at a time, they spread out.
 */
export const INDEX_CONCURRENCY = 2;
/**
 * What a run does: 'all' indexes every shown message without passages (a few batches per run), then
 * takes the statistics' pending changes in; 'statistics' only takes them in (after undo, redo and
 * erase, which flip passages that exist).
 */
export type IndexScope = 'all' | 'statistics';

export interface MemoryBankDeps {
  repos: Pick<Repositories, 'memoryBank'>;
  log: Log;
  /** Embeds the passages written, when EMBEDDINGS_PROVIDER is set. */
  vectors?: Pick<VectorRecall, 'embedPassages'>;
  /**
   * False when nothing is ever recalled (LLM_RECALL_TOKENS=0): no story is indexed, so no turn pays
   * for passages no prompt reads. Turned on again, each story catches up after its next fold.
   */
  indexing?: boolean;
}

export function createMemoryBank(deps: MemoryBankDeps) {
  const inFlight = new Map<number, Promise<void>>();
  /** Stories asked for again while their job ran, with the widest scope asked: it runs once more after. */
  const again = new Map<number, IndexScope>();

  async function catchUp(storyId: number, scope: IndexScope): Promise<void> {
    for (let batch = 0; scope === 'all' && batch < INDEX_BATCHES_PER_RUN; batch += 1) {
      const messages = await deps.repos.memoryBank.unindexed(storyId, INDEX_BATCH);
      await deps.repos.memoryBank.savePassages(
        storyId,
        messages.map((message) => ({ message, passages: passagesOf(message.content) })),
      );
      if (messages.length < INDEX_BATCH) break;
      await nextTurn();
    }
    // The statistics follow what the story shows now: any undo, erase, edit or new version since
    // the last run (the triggers' rows).
    await deps.repos.memoryBank.applyDeltas(storyId);
  }

  /** Stories waiting for a free slot, in the order asked. */
  const waiting: Array<() => void> = [];
  let running = 0;
  async function slot(): Promise<void> {
    if (running < INDEX_CONCURRENCY) {
      running += 1;
      return;
    }
    // The slot passes straight to the next waiter (running stays counted).
    await new Promise<void>((resolve) => waiting.push(resolve));
  }
  function release(): void {
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  }

  async function queuedCatchUp(storyId: number, scope: IndexScope): Promise<void> {
    await slot();
    try {
      await catchUp(storyId, scope);
    } finally {
      release();
    }
    // Outside the slot: an embedding call waits on the network, not on the database.
    if (scope === 'all') await deps.vectors?.embedPassages(storyId);
  }

  function index(storyId: number, scope: IndexScope): void {
    if (deps.indexing === false) return;
    if (inFlight.has(storyId)) {
      again.set(storyId, again.get(storyId) === 'all' ? 'all' : scope);
      return;
    }
    const job = queuedCatchUp(storyId, scope)
      .catch((error: unknown) => {
        deps.log.warn({ storyId, error: String(error) }, 'memory bank indexing failed; the next run catches up');
      })
      .finally(() => {
        inFlight.delete(storyId);
        const next = again.get(storyId);
        again.delete(storyId);
        if (next) index(storyId, next);
      });
    inFlight.set(storyId, job);
  }

  return {
    /** Runs `scope` for the story in the background (once more after its running job, if one runs). */
    index,
    /** Resolves when no indexing runs (tests, benchmarks and shutdown wait on it). */
    async idle(): Promise<void> {
      while (inFlight.size > 0) await Promise.all([...inFlight.values()]);
    },
  };
}
export type MemoryBank = ReturnType<typeof createMemoryBank>;
