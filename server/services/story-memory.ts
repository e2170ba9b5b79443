// Story memory: folds the oldest verbatim turns into the rolling summary once they fill most of
// their room, with one summarisation call to the same provider. It runs after the reply is saved,
// off the turn's critical path; a failed summary is logged and tried again after a later turn,
// and never fails a turn (the context assembler drops the oldest turns until the fold lands).
import type { Budget } from '@server/ai/llm/context';
import { cutMiddle, planFold, recentRoom, transcript } from '@server/ai/llm/context';
import { pinnedBlock, SUMMARY_SYSTEM_PROMPT, summaryUserPrompt } from '@server/ai/llm/prompts';
import { NarratorError, type NarratorProvider, type TurnRecord } from '@server/ai/llm/types';
import { AppError } from '@server/errors';
import type { Repositories } from '@server/db/repositories';
import type { MessageRecord, StoryRecord } from '@server/db/repositories/stories';
import type { Allowance } from './allowance';
import { scrubbed } from './narrator-errors';
import { recordNarratorCall } from './narrator-usage';

export interface Log {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

interface MemoryDeps {
  repos: Repositories;
  provider: NarratorProvider;
  budget: Budget;
  /** A fold is a paid call: it waits for a later turn when the player's hour or month is spent. */
  allowance: Pick<Allowance, 'admit'>;
  apiKey: string | undefined;
  now: () => Date;
  flush: () => Promise<void>;
  log: Log;
}

const SUMMARY_TEMPERATURE = 0.3;
/** Words per token in English prose, to turn the memory's token cap into an instruction. */
const WORDS_PER_TOKEN = 0.7;

export function createStoryMemory(deps: MemoryDeps) {
  const inFlight = new Map<number, Promise<void>>();

  async function fold(story: StoryRecord, turns: MessageRecord[], throughId: number, count: (text: string) => number): Promise<void> {
    const records: TurnRecord[] = turns.map((m) => ({ role: m.role, content: m.content }));
    const maxWords = Math.floor(deps.budget.memory * WORDS_PER_TOKEN);
    const request = {
      system: SUMMARY_SYSTEM_PROMPT,
      messages: [{ role: 'user' as const, content: summaryUserPrompt(story.memory, transcript(records), maxWords) }],
      maxOutputTokens: deps.budget.memory,
      temperature: SUMMARY_TEMPERATURE,
      task: { kind: 'summary' as const, memory: story.memory, turns: records, maxTokens: deps.budget.memory },
    };
    const promptTokens = count(request.system) + request.messages.reduce((sum, m) => sum + count(m.content), 0);
    const hold = await deps.allowance.admit(story.userId, 'summary', promptTokens + request.maxOutputTokens);
    let result;
    try {
      result = await deps.provider.generate(request);
      await recordNarratorCall(deps.repos, deps.provider, { userId: story.userId, storyId: story.id, kind: 'summary', request, result, now: deps.now() });
    } finally {
      await hold.release();
    }
    const memory = cutMiddle(result.text.trim(), deps.budget.memory, count);
    if (memory) await deps.repos.stories.applyFold(story.id, { throughId: story.memoryThroughId, memory: story.memory }, throughId, memory, deps.now());
    await deps.flush();
  }

  return {
    /**
     * Starts a fold in the background when the window (the unfolded turns, newest reply included)
     * has outgrown its room. One fold per story at a time in this process; across processes the
     * compare-and-set on memoryThroughId keeps only the first.
     */
    maybeFold(story: StoryRecord, window: MessageRecord[], systemTokens: number, count: (text: string) => number): void {
      if (inFlight.has(story.id)) return;
      const room = recentRoom(deps.budget, systemTokens, count(pinnedBlock(story.premise, story.notes)));
      const throughId = planFold(
        window.map((m) => ({ id: m.id, role: m.role, tokens: count(m.content) })),
        room,
      );
      if (throughId === null) return;
      const turns = window.filter((m) => m.id <= throughId);
      const job = fold(story, turns, throughId, count)
        .catch((error: unknown) => {
          if (error instanceof AppError) {
            deps.log.info({ storyId: story.id, reason: error.message }, 'story memory fold deferred: the player has no calls left for now');
            return;
          }
          const detail = error instanceof NarratorError ? scrubbed(error.detail, deps.apiKey) : String(error);
          deps.log.warn({ storyId: story.id, provider: deps.provider.id, detail }, 'story memory fold failed; the turns stay verbatim for now');
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
