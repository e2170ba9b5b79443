// One paid summarising call, a fold's or a compaction's: admitted against the player's hour and
// month for its prompt and most output, made, and recorded in the usage ledger under the reply that
// set it off; the reservation is given back whatever the call answers.
import type { GenerationRequest } from '@server/ai/llm/types';
import type { StoryRecord } from '@server/db/repositories/stories';
import { recordNarratorCall } from '../../../limits/usage-ledger';
import type { MemoryDeps } from './memory-deps';

export const SUMMARY_TEMPERATURE = 0.3;
/** Words per token in English prose, to turn the memory's token cap into an instruction. */
export const WORDS_PER_TOKEN = 0.7;

export async function summarise(
  deps: Pick<MemoryDeps, 'repos' | 'provider' | 'allowance' | 'now'>,
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
