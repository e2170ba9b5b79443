// One fold: the next piece of the unfolded messages through a target, read capped so it fits the
// model's window beside the instructions, the memory and the summary's own output, summarised into
// a new chunk appended after the memory's (compacting the oldest first when it would not fit), and
// applied by compare-and-set on the story's memoryThroughId, so of two folds at once only the
// first lands. An applied fold tells onFolded its facts and the messages it covered.
import { cutMiddle } from '@server/ai/llm/context';
import {
  pieceLimits,
  summaryOutputTokens,
  summaryPiece,
  summaryPromptLimit,
  summaryRoom,
  transcript,
  transcriptLineTokens,
} from '@server/ai/llm/fold';
import {
  appendChunk,
  CHUNK_JOINER,
  chunkTokens,
  cleanChunk,
  planCompaction,
  splitChunks,
  storedMemory,
} from '@server/ai/llm/memory-chunks';
import { SUMMARY_SYSTEM_PROMPT, summaryUserPrompt } from '@server/ai/llm/prompts';
import { readSummaryAnswer } from '@server/ai/llm/summary-answer';
import type { StoryRecord } from '@server/db/repositories/stories';
import type { Log } from '@server/kernel/log';
import { compact } from './compaction';
import type { MemoryDeps } from './memory-deps';
import { summarise, SUMMARY_TEMPERATURE, WORDS_PER_TOKEN } from './summary-call';

/** Summarises the next piece of the unfolded messages through `targetId` into a new chunk of the memory. */
export async function fold(
  deps: MemoryDeps,
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
    deps,
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
      merged > 0
        ? { merged, compacted: await compact(deps, story, chunks.slice(0, merged), count, replyId) }
        : undefined;
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
