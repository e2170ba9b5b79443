// What a narrator reply cost: its own calls, the first answer and the loop guard's second
// when there was one, summed and priced by the one price function (kernel/cost.ts). The `done`
// event, the turn's JSON answer and the stored version all carry this figure.
import type { GenerationUsage, NarratorProvider } from '@server/ai/llm/types';
import type { StoryRecord } from '@server/db/repositories/stories';
import type { UsageEvent } from '@server/db/repositories/usage';
import type { Prices } from '@server/kernel/config/prices';
import { costUsd } from '@server/kernel/cost';
import type { ReplyUsage } from '@shared/schemas/story';

/**
 * A turn call's ledger row: the provider's own counts where it reported them (`reported`), else the
 * prompt as counted and the text's tokens (a stream that died is still billed for what it sent).
 */
export function turnCallUsage(
  story: Pick<StoryRecord, 'id' | 'userId'>,
  provider: Pick<NarratorProvider, 'id' | 'model' | 'narrator'>,
  reported: GenerationUsage | null,
  promptTokens: number,
  textTokens: number,
  now: Date,
): UsageEvent & { inputTokens: number; outputTokens: number } {
  return {
    userId: story.userId,
    storyId: story.id,
    kind: 'turn',
    provider: provider.id,
    model: provider.model,
    narrator: provider.narrator,
    inputTokens: reported?.inputTokens ?? promptTokens,
    cachedInputTokens: reported?.cachedInputTokens,
    outputTokens: reported?.outputTokens ?? textTokens,
    createdAt: now,
  };
}

type CallUsage = Pick<UsageEvent, 'inputTokens' | 'cachedInputTokens' | 'outputTokens'>;

/** The calls' tokens summed; the cached part only when some call reported one. */
export function replyUsage(calls: CallUsage[], prices: Prices): ReplyUsage {
  let input = 0;
  let output = 0;
  let cached: number | undefined;
  for (const call of calls) {
    input += call.inputTokens ?? 0;
    output += call.outputTokens ?? 0;
    if (call.cachedInputTokens !== undefined) cached = (cached ?? 0) + call.cachedInputTokens;
  }
  return {
    inputTokens: input,
    outputTokens: output,
    ...(cached !== undefined ? { cachedInputTokens: cached } : {}),
    costUsd: costUsd({ input, cachedInput: cached, output }, prices),
    calls: calls.length,
  };
}
