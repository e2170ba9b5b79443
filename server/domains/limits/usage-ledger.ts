// One ledger row for a whole (not streamed) narrator call: a title, a memory fold, a style sheet.
// The provider's own token counts where it reports them, else counted with the tokenizer.
import { loadTokenCounter } from '@server/ai/llm/tokenizer';
import type { GenerationRequest, GenerationResult, NarratorProvider } from '@server/ai/llm/types';
import type { Repositories } from '@server/db/repositories';
import type { UsageEvent } from '@server/db/repositories/usage';

export async function recordNarratorCall(
  repos: Pick<Repositories, 'usage'>,
  provider: Pick<NarratorProvider, 'id' | 'model' | 'narrator'>,
  call: {
    userId: number;
    storyId: number;
    /** The narrator reply the call came after (its fold, its picture's style sheet), listed with it. */
    messageId?: number | null;
    kind: NonNullable<UsageEvent['kind']>;
    request: GenerationRequest;
    result: GenerationResult;
    now: Date;
  },
): Promise<void> {
  const count = await loadTokenCounter();
  const { request, result } = call;
  await repos.usage.record({
    userId: call.userId,
    storyId: call.storyId,
    messageId: call.messageId ?? null,
    kind: call.kind,
    provider: provider.id,
    model: provider.model,
    narrator: provider.narrator,
    inputTokens:
      result.usage.inputTokens ??
      count(request.system) + request.messages.reduce((sum, m) => sum + count(m.content), 0),
    cachedInputTokens: result.usage.cachedInputTokens ?? 0,
    outputTokens: result.usage.outputTokens ?? count(result.text),
    createdAt: call.now,
  });
}
