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
import type { Budget } from '@server/ai/llm/context';
import { cutMiddle, SAFETY_MARGIN } from '@server/ai/llm/context';
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
import {
  appendChunk,
  CHUNK_JOINER,
  chunkTokens,
  cleanChunk,
  compactTokens,
  planCompaction,
  splitChunks,
  storedMemory,
} from '@server/ai/llm/memory-chunks';
import {
  COMPACTION_SYSTEM_PROMPT,
  compactionUserPrompt,
  pinnedBlock,
  SUMMARY_SYSTEM_PROMPT,
  summaryUserPrompt,
} from '@server/ai/llm/prompts';
import { readSummaryAnswer, type FactInput } from '@server/ai/llm/summary-answer';
import { NarratorError, type GenerationRequest, type NarratorProvider } from '@server/ai/llm/types';
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

  /** One paid summarising call (a fold's or a compaction's), admitted against the player's allowance and recorded. */
  async function summarise(
    story: StoryRecord,
    request: GenerationRequest,
    count: (text: string) => number,
    replyId: number | null,
  ) {
    const promptTokens = count(request.system) + request.messages.reduce((sum, m) => sum + count(m.content), 0);
    const hold = await deps.allowance.admit(story.userId, 'summary', promptTokens + request.maxOutputTokens);
    try {
      const result = await deps.provider.generate(request);
      await recordNarratorCall(deps.repos, deps.provider, {
        userId: story.userId,
        storyId: story.id,
        messageId: replyId,
        kind: 'summary',
        request,
        result,
        now: deps.now(),
      });
      return result;
    } finally {
      await hold.release();
    }
  }

  /** The oldest chunks merged into one of at most compactTokens (its parts' middle cut if they would not fit the window). */
  async function compact(
    story: StoryRecord,
    parts: string[],
    count: (text: string) => number,
    replyId: number | null,
  ): Promise<string> {
    const maxTokens = compactTokens(deps.budget.memory);
    const maxWords = Math.max(1, Math.floor(maxTokens * WORDS_PER_TOKEN));
    const limit = Math.floor((deps.contextTokens - deps.budget.memory) * (1 - SAFETY_MARGIN));
    const frame = count(COMPACTION_SYSTEM_PROMPT) + count(compactionUserPrompt([], maxWords));
    const text = cutMiddle(parts.join(CHUNK_JOINER), Math.max(1, limit - frame), count);
    const result = await summarise(
      story,
      {
        system: COMPACTION_SYSTEM_PROMPT,
        messages: [{ role: 'user', content: compactionUserPrompt([text], maxWords) }],
        maxOutputTokens: deps.budget.memory,
        temperature: SUMMARY_TEMPERATURE,
        task: { kind: 'compact', parts, maxTokens },
      },
      count,
      replyId,
    );
    // A stray facts section is not part of the memory.
    const merged = cutMiddle(cleanChunk(readSummaryAnswer(result.text).summary), maxTokens, count);
    if (!merged) throw new Error('the compaction answered no text');
    return merged;
  }

  /** Summarises the next piece of the unfolded messages through `targetId` into a new chunk of the memory. */
  async function fold(
    story: StoryRecord,
    targetId: number,
    count: (text: string) => number,
    replyId: number | null,
    log: Log,
  ): Promise<void> {
    const chunks = splitChunks(story.memory);
    const maxTokens = chunkTokens(deps.budget.memory);
    const maxWords = Math.max(1, Math.floor(maxTokens * WORDS_PER_TOKEN));
    const { memory, roomTokens } = summaryRoom(
      chunks.join(CHUNK_JOINER),
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
    const result = await summarise(
      story,
      {
        system: SUMMARY_SYSTEM_PROMPT,
        messages: [{ role: 'user' as const, content: summaryUserPrompt(memory, transcript(piece.turns), maxWords) }],
        maxOutputTokens: summaryOutputTokens(deps.budget),
        temperature: SUMMARY_TEMPERATURE,
        task: { kind: 'summary' as const, memory, turns: piece.turns, maxTokens },
      },
      count,
      replyId,
    );
    const answer = readSummaryAnswer(result.text);
    const chunk = cutMiddle(cleanChunk(answer.summary), maxTokens, count);
    let applied = false;
    if (chunk.length > 0) {
      const merged = planCompaction(chunks, chunk, deps.budget.memory, count);
      const compaction =
        merged > 0 ? { merged, compacted: await compact(story, chunks.slice(0, merged), count, replyId) } : undefined;
      applied = await deps.repos.stories.applyFold(
        story.id,
        { throughId: story.memoryThroughId, memory: story.memory },
        piece.throughId,
        storedMemory(appendChunk(chunks, chunk, compaction)),
        deps.now(),
      );
    }
    await deps.flush();
    if (!applied) return;
    if (answer.problem)
      log.info(
        { storyId: story.id, provider: deps.provider.id, problem: answer.problem },
        'story bible: no facts from this fold; the memory folded as usual',
      );
    await deps.onFolded?.(story.id, answer.facts, piece.sources);
  }

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
      const job = fold(story, targetId, count, replyId, log)
        .catch((error: unknown) => {
          if (error instanceof AppError) {
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
