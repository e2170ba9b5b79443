// The memory bank's indexing. Recall looks only before the verbatim window, so a message is needed
// in the bank once a fold has taken it out of the window: after each fold (and after an edit, a
// version chosen, a branch or an import), the story's shown messages that have no passages for the
// version they show are cut into passages (passages.ts) and written, off the turn's critical path, a
// batch at a time with a turn of the event loop between batches; then the story's term statistics
// take in what changed. A turn costs the bank nothing until its story folds, and a fold's batch
// shares the upkeep of words its turns have in common. With embeddings, the new passages are then
// embedded (vector-recall.ts). A failure is logged and caught up by a later run; one story is indexed
// by one job at a time.
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Repositories } from '@server/db/repositories';
import type { Log } from '@server/kernel/log';
import { passagesOf } from './passages';
import type { VectorRecall } from './vector-recall';

/** Messages read and written per batch. */
export const INDEX_BATCH = 40;
/** Batches per catch-up: an imported story of thousands of messages is indexed over a few runs. */
export const INDEX_BATCHES_PER_RUN = 25;
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
    if (scope === 'all') await deps.vectors?.embedPassages(storyId);
  }

  function index(storyId: number, scope: IndexScope): void {
    if (inFlight.has(storyId)) {
      again.set(storyId, again.get(storyId) === 'all' ? 'all' : scope);
      return;
    }
    const job = catchUp(storyId, scope)
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
