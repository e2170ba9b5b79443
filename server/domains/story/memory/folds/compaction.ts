// A compaction: the memory's oldest chunks merged into one of at most compactTokens, so the next
// fold's chunk fits the memory's budget. Its parts' middle is cut if they would not fit the
// model's window beside the instructions; a stray facts section in the answer is not memory.
import { cutMiddle, SAFETY_MARGIN } from '@server/ai/llm/context';
import { CHUNK_JOINER, cleanChunk, compactTokens } from '@server/ai/llm/memory-chunks';
import { COMPACTION_SYSTEM_PROMPT, compactionUserPrompt } from '@server/ai/llm/prompts';
import { readSummaryAnswer } from '@server/ai/llm/summary-answer';
import type { StoryRecord } from '@server/db/repositories/stories';
import type { MemoryDeps } from './memory-deps';
import { summarise, SUMMARY_TEMPERATURE, WORDS_PER_TOKEN } from './summary-call';

export async function compact(
  deps: Pick<MemoryDeps, 'repos' | 'provider' | 'allowance' | 'now' | 'budget' | 'contextTokens'>,
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
    deps,
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
