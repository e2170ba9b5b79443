// Story memory: folds the oldest verbatim turns into the memory once they fill most of their room,
// with one summarisation call to the same provider. It runs after the reply is saved, off the
// turn's critical path; a failed summary is logged and tried again after a later turn, and never
// fails a turn (the context assembler drops the oldest turns until the fold lands).
// A fold reads the oldest unfolded messages capped and summarises one piece that fits the model's
// window beside the instructions, the memory and the summary's own output; a memory far behind
// (an imported story) catches up one piece per turn. The answer is a new chunk appended after the
// memory's chunks (ai/llm/memory-chunks.ts), so the prompt's stable head only grows; when the
// chunk would take the memory past its budget, a second call first merges the oldest chunks into
// one (a compaction), and the fold applies both at once or, if that call fails, neither.
// This door decides when a fold starts and keeps one per story running; the fold itself is
// fold.ts, the compaction compaction.ts, and their paid call summary-call.ts.
import { recentRoom, planFold, type FoldCandidate } from '@server/ai/llm/fold';
import { pinnedBlock } from '@server/ai/llm/prompts';
import { NarratorError } from '@server/ai/llm/types';
import type { StoryRecord } from '@server/db/repositories/stories';
import { DomainError } from '@server/kernel/errors';
import type { Log } from '@server/kernel/log';
import { redact } from '@server/kernel/redact';
import { fold } from './fold';
import type { MemoryDeps } from './memory-deps';

export function createStoryMemory(deps: MemoryDeps) {
  const inFlight = new Map<number, Promise<void>>();

  return {
    /**
     * Starts a fold in the background when the unfolded turns (`recent`, the newest of them with
     * their counts, the new reply included; `olderUnfolded` when there are more before them) have
     * outgrown their room, which the memory's tokens as the turn's prompt sent them narrow. One fold
     * per story at a time in this process; across processes the compare-and-set on memoryThroughId
     * keeps only the first. Its lines go to `log`: the turn's request logger, so they carry its id.
     */
    maybeFold(
      story: StoryRecord,
      recent: FoldCandidate[],
      olderUnfolded: boolean,
      systemTokens: number,
      memoryTokens: number,
      count: (text: string) => number,
      log: Log = deps.log,
    ): void {
      if (inFlight.has(story.id)) return;
      const room = recentRoom(deps.budget, systemTokens, count(pinnedBlock(story.premise, story.notes)), memoryTokens);
      const targetId = planFold(recent, room, olderUnfolded);
      if (targetId === null) return;
      // The newest reply set the fold off: its calls are listed with that reply.
      const replyId = recent.findLast((c) => c.role === 'assistant')?.id ?? null;
      const job = fold(deps, story, targetId, count, replyId, log)
        .catch((error: unknown) => {
          if (error instanceof DomainError) {
            log.info(
              { storyId: story.id, reason: error.message },
              'story memory fold deferred: the player has no calls left for now',
            );
            return;
          }
          const detail = error instanceof NarratorError ? redact(error.detail, [deps.apiKey]) : String(error);
          log.warn(
            { storyId: story.id, provider: deps.provider.id, detail },
            'story memory fold failed; the turns stay verbatim for now',
          );
        })
        .finally(() => inFlight.delete(story.id));
      inFlight.set(story.id, job);
    },

    /** Resolves when no fold is running (tests, benchmarks and shutdown wait on it). */
    async idle(): Promise<void> {
      while (inFlight.size > 0) await Promise.all([...inFlight.values()]);
    },
  };
}
export type StoryMemory = ReturnType<typeof createStoryMemory>;
