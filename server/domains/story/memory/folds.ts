// Story memory: folds the oldest verbatim turns into the rolling summary once they fill most of
// their room, with one summarisation call to the same provider. It runs after the reply is saved,
// off the turn's critical path; a failed summary is logged and tried again after a later turn,
// and never fails a turn (the context assembler drops the oldest turns until the fold lands).
// A fold reads the oldest unfolded messages capped and summarises one piece that fits the model's
// window beside the instructions, the memory and the summary's own output; a memory far behind
// (an imported story) catches up one piece per turn.
import type { Budget } from '@server/ai/llm/context';
import { cutMiddle } from '@server/ai/llm/context';
import {
  pieceLimits,
  planFold,
  recentRoom,
  summaryOutputTokens,
  summaryPiece,
  summaryPromptLimit,
  summaryRoom,
  transcript,
  transcriptLineTokens,
  type FoldCandidate,
} from '@server/ai/llm/fold';
import { pinnedBlock, SUMMARY_SYSTEM_PROMPT, summaryUserPrompt } from '@server/ai/llm/prompts';
import { readSummaryAnswer, type FactInput } from '@server/ai/llm/summary-answer';
import { NarratorError, type NarratorProvider } from '@server/ai/llm/types';
import { AppError } from '@server/kernel/errors';
import type { Repositories } from '@server/db/repositories';
import type { StoryRecord } from '@server/db/repositories/stories';
import type { Log } from '@server/kernel/log';
import type { Allowance } from '../../limits/allowance';
import { redact } from '@server/kernel/redact';
import { recordNarratorCall } from '../../limits/usage-ledger';
import type { FoldSource } from '../bible/from-fold';

interface MemoryDeps {
  repos: Repositories;
  provider: NarratorProvider;
  budget: Budget;
  /** LLM_CONTEXT_TOKENS: a summary request, its output included, stays inside it. */
  contextTokens: number;
  /** A fold is a paid call: it waits for a later turn when the player's hour or month is spent. */
  allowance: Pick<Allowance, 'admit'>;
  apiKey: string | undefined;
  now: () => Date;
  flush: () => Promise<void>;
  log: Log;
  /**
   * Told of each fold applied, with the story bible's facts its answer stated and the messages it
   * covered: the turns it took out of the verbatim window can now be recalled (the memory bank
   * indexes them), and the facts are saved.
   */
  onFolded?: (storyId: number, facts: FactInput[], sources: FoldSource[]) => Promise<void> | void;
}

const SUMMARY_TEMPERATURE = 0.3;
/** Words per token in English prose, to turn the memory's token cap into an instruction. */
const WORDS_PER_TOKEN = 0.7;

export function createStoryMemory(deps: MemoryDeps) {
  const inFlight = new Map<number, Promise<void>>();

  /** Summarises the next piece of the unfolded messages through `targetId` into the memory. */
  async function fold(story: StoryRecord, targetId: number, count: (text: string) => number): Promise<void> {
    const maxWords = Math.floor(deps.budget.memory * WORDS_PER_TOKEN);
    const { memory, roomTokens } = summaryRoom(
      story.memory,
      maxWords,
      summaryPromptLimit(deps.contextTokens, deps.budget),
      count,
    );
    const read = await deps.repos.stories.oldestUnfolded(
      story.id,
      story.memoryThroughId,
      targetId,
      pieceLimits(roomTokens, transcriptLineTokens(count)),
    );
    const piece = summaryPiece(read.messages, roomTokens, !read.more, count);
    if (!piece) return;
    const request = {
      system: SUMMARY_SYSTEM_PROMPT,
      messages: [{ role: 'user' as const, content: summaryUserPrompt(memory, transcript(piece.turns), maxWords) }],
      maxOutputTokens: summaryOutputTokens(deps.budget),
      temperature: SUMMARY_TEMPERATURE,
      task: { kind: 'summary' as const, memory, turns: piece.turns, maxTokens: deps.budget.memory },
    };
    const promptTokens = count(request.system) + request.messages.reduce((sum, m) => sum + count(m.content), 0);
    const hold = await deps.allowance.admit(story.userId, 'summary', promptTokens + request.maxOutputTokens);
    let result;
    try {
      result = await deps.provider.generate(request);
      await recordNarratorCall(deps.repos, deps.provider, {
        userId: story.userId,
        storyId: story.id,
        kind: 'summary',
        request,
        result,
        now: deps.now(),
      });
    } finally {
      await hold.release();
    }
    const answer = readSummaryAnswer(result.text);
    const next = cutMiddle(answer.summary, deps.budget.memory, count);
    const applied =
      next.length > 0 &&
      (await deps.repos.stories.applyFold(
        story.id,
        { throughId: story.memoryThroughId, memory: story.memory },
        piece.throughId,
        next,
        deps.now(),
      ));
    await deps.flush();
    if (!applied) return;
    if (answer.problem)
      deps.log.info(
        { storyId: story.id, provider: deps.provider.id, problem: answer.problem },
        'story bible: no facts from this fold; the memory folded as usual',
      );
    await deps.onFolded?.(story.id, answer.facts, piece.sources);
  }

  return {
    /**
     * Starts a fold in the background when the unfolded turns (`recent`, the newest of them with
     * their counts, the new reply included; `olderUnfolded` when there are more before them) have
     * outgrown their room. One fold per story at a time in this process; across processes the
     * compare-and-set on memoryThroughId keeps only the first.
     */
    maybeFold(
      story: StoryRecord,
      recent: FoldCandidate[],
      olderUnfolded: boolean,
      systemTokens: number,
      count: (text: string) => number,
    ): void {
      if (inFlight.has(story.id)) return;
      const room = recentRoom(deps.budget, systemTokens, count(pinnedBlock(story.premise, story.notes)));
      const targetId = planFold(recent, room, olderUnfolded);
      if (targetId === null) return;
      const job = fold(story, targetId, count)
        .catch((error: unknown) => {
          if (error instanceof AppError) {
            deps.log.info(
              { storyId: story.id, reason: error.message },
              'story memory fold deferred: the player has no calls left for now',
            );
            return;
          }
          const detail = error instanceof NarratorError ? redact(error.detail, [deps.apiKey]) : String(error);
          deps.log.warn(
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
