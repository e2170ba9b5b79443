// Runs a request through a Vercel AI SDK language model (the OpenAI-compatible and Anthropic
// adapters share this). The SDK's textStream never throws, so failure is read from fullStream's
// error/abort parts and its finish reason: only a normal stop (or the length cap) counts as done.
import { APICallError, generateText, LoadAPIKeyError, RetryError, streamText, type LanguageModel, type ModelMessage } from 'ai';
import { NarratorError, type GenerationRequest, type GenerationResult, type GenerationUsage } from './types';

type ProviderOptions = NonNullable<ModelMessage['providerOptions']>;

const FINISHED = new Set(['stop', 'length']);

/** Maps an SDK or network failure to what the player is told; the detail goes to the log. */
export function classifyProviderError(error: unknown, timedOut: boolean): NarratorError {
  if (error instanceof NarratorError) return error;
  if (timedOut) return new NarratorError('timeout', 'no complete answer before LLM_TIMEOUT_MS', { cause: error });
  const inner = RetryError.isInstance(error) ? error.lastError : error;
  if (LoadAPIKeyError.isInstance(inner)) return new NarratorError('misconfigured', inner.message, { cause: inner });
  if (APICallError.isInstance(inner)) {
    const status = inner.statusCode ?? 0;
    const detail = `HTTP ${status || 'error'} from ${inner.url}: ${(inner.responseBody ?? inner.message).slice(0, 500)}`;
    if ([400, 401, 403, 404, 422].includes(status)) return new NarratorError('misconfigured', detail, { cause: inner });
    if (status === 408 || status === 504) return new NarratorError('timeout', detail, { cause: inner });
    return new NarratorError('unavailable', detail, { cause: inner });
  }
  const message = inner instanceof Error ? inner.message : String(inner);
  return new NarratorError('unavailable', message, { cause: inner });
}

function toUsage(usage: { inputTokens: number | undefined; outputTokens: number | undefined } | undefined): GenerationUsage {
  return { inputTokens: usage?.inputTokens, outputTokens: usage?.outputTokens };
}

/**
 * Marks where a provider that wants explicit cache breakpoints (Anthropic) may cache the prompt:
 * after the system prompt, after the premise-and-memory message, and after the last turn before
 * the new action. Between memory folds each turn's prompt extends the previous one, so all three
 * prefixes are reused.
 */
function withCacheBreakpoints(request: GenerationRequest, cache: ProviderOptions | undefined) {
  if (!cache) return { system: request.system, messages: request.messages as ModelMessage[] };
  const last = request.messages.length - 2;
  return {
    system: { role: 'system' as const, content: request.system, providerOptions: cache },
    messages: request.messages.map((m, i): ModelMessage => (i === 0 || i === last ? { ...m, providerOptions: cache } : m)),
  };
}

export async function runLanguageModel(
  model: LanguageModel,
  request: GenerationRequest,
  timeoutMs: number,
  onDelta?: (text: string) => void,
  cache?: ProviderOptions,
): Promise<GenerationResult> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new Error('timeout'));
  }, timeoutMs);
  const common = {
    model,
    ...withCacheBreakpoints(request, cache),
    maxOutputTokens: request.maxOutputTokens,
    temperature: request.temperature,
    abortSignal: controller.signal,
    // The player has a retry button; silent retries would only stretch a failure past the timeout.
    maxRetries: 0,
  };
  try {
    if (!onDelta) {
      const result = await generateText(common);
      if (!FINISHED.has(result.finishReason)) throw new NarratorError('unavailable', `finish reason ${result.finishReason}`);
      return { text: result.text, usage: toUsage(result.usage) };
    }
    const result = streamText({ ...common, onError: () => {} });
    let text = '';
    let finish: { reason: string; usage: GenerationUsage } | null = null;
    for await (const part of result.fullStream) {
      if (part.type === 'text-delta') {
        if (part.text) {
          text += part.text;
          onDelta(part.text);
        }
      } else if (part.type === 'error') {
        throw part.error;
      } else if (part.type === 'abort') {
        throw new NarratorError(timedOut ? 'timeout' : 'unavailable', `stream aborted${part.reason ? `: ${part.reason}` : ''}`);
      } else if (part.type === 'finish') {
        finish = { reason: part.finishReason, usage: toUsage(part.totalUsage) };
      }
    }
    if (timedOut) throw new NarratorError('timeout', 'stream stalled past LLM_TIMEOUT_MS');
    if (!finish || !FINISHED.has(finish.reason)) {
      throw new NarratorError('unavailable', `stream ended without a normal finish (${finish?.reason ?? 'no finish event'})`);
    }
    return { text, usage: finish.usage };
  } catch (error) {
    throw classifyProviderError(error, timedOut);
  } finally {
    clearTimeout(timer);
  }
}
