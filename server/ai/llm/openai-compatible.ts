// Any OpenAI-compatible chat-completions endpoint: OpenAI, OpenRouter, vLLM, llama.cpp server,
// Ollama's /v1, LM Studio. Streamed answers ask for usage in a last chunk (stream_options), which
// most servers honour; where none comes, the narrator counts tokens itself.
import type { LlmConfig } from '@server/kernel/config';
import {
  callProvider,
  checkFinish,
  count,
  field,
  fail,
  parseEventData,
  readEvents,
  readJson,
  type ProviderSettings,
  type WireCall,
} from './wire';
import type { GenerationRequest, GenerationResult, GenerationUsage, NarratorProvider } from './types';

/**
 * DRY ("don't repeat yourself") as llama.cpp's server and koboldcpp name it: a penalty growing with
 * the length of a repeated sequence, past two tokens. OpenAI answers 400 to unknown parameters, so
 * it is sent only when LOOP_DRY is on.
 */
const DRY = { dry_multiplier: 0.8, dry_base: 1.75, dry_allowed_length: 2 } as const;

function repetitionParameters(request: GenerationRequest) {
  const asked = request.repetition;
  if (!asked) return {};
  return {
    ...(asked.frequencyPenalty > 0 ? { frequency_penalty: asked.frequencyPenalty } : {}),
    ...(asked.dry ? DRY : {}),
  };
}

/** How an answer may end and still be a whole reply: a natural stop, or the length cap. */
const FINISHED = new Set(['stop', 'length']);

function requestBody(settings: ProviderSettings, request: GenerationRequest, stream: boolean) {
  return {
    model: settings.model,
    messages: [
      { role: 'system', content: request.system },
      ...request.messages.map((m) => ({ role: m.role, content: m.content })),
    ],
    max_tokens: request.maxOutputTokens,
    temperature: request.temperature,
    ...repetitionParameters(request),
    ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}),
  };
}

/** prompt_tokens counts the cached ones too; prompt_tokens_details.cached_tokens is that part (OpenAI, vLLM). */
function usageOf(value: unknown): GenerationUsage {
  const cached = count(field(field(value, 'prompt_tokens_details'), 'cached_tokens'));
  return {
    inputTokens: count(field(value, 'prompt_tokens')),
    outputTokens: count(field(value, 'completion_tokens')),
    ...(cached !== undefined ? { cachedInputTokens: cached } : {}),
  };
}

/** A mid-stream `{"error": {...}}` (OpenRouter, vLLM) is the provider failing, not text. */
function checkError(call: WireCall, chunk: unknown): void {
  const error = field(chunk, 'error');
  if (error !== undefined && error !== null) {
    const message = field(error, 'message');
    throw fail(
      call,
      'unavailable',
      `provider error mid-answer: ${typeof message === 'string' ? message : JSON.stringify(error).slice(0, 300)}`,
    );
  }
}

async function complete(settings: ProviderSettings, request: GenerationRequest): Promise<GenerationResult> {
  return callProvider(wireRequest(settings, request, false), async (response, call) => {
    const body = await readJson(response, call);
    checkError(call, body);
    const choice = (field(body, 'choices') as unknown[] | undefined)?.[0];
    checkFinish(call, field(choice, 'finish_reason'), FINISHED, 'finish reason');
    const content = field(field(choice, 'message'), 'content');
    return { text: typeof content === 'string' ? content : '', usage: usageOf(field(body, 'usage')) };
  });
}

async function stream(
  settings: ProviderSettings,
  request: GenerationRequest,
  onDelta: (text: string) => void,
): Promise<GenerationResult> {
  return callProvider(wireRequest(settings, request, true), async (response, call) => {
    let text = '';
    let finish: unknown;
    let usage: GenerationUsage = { inputTokens: undefined, outputTokens: undefined };
    await readEvents(response, call, (event) => {
      if (event.data === '[DONE]') return;
      const chunk = parseEventData(call, event.data);
      checkError(call, chunk);
      const choices = field(chunk, 'choices');
      const choice = Array.isArray(choices) ? choices[0] : undefined;
      if (choice !== undefined) {
        const piece = field(field(choice, 'delta'), 'content');
        if (typeof piece === 'string' && piece) {
          text += piece;
          onDelta(piece);
        }
        const reason = field(choice, 'finish_reason');
        if (reason) finish = reason;
      }
      const reported = field(chunk, 'usage');
      if (reported) usage = usageOf(reported);
    });
    checkFinish(call, finish, FINISHED, 'finish reason');
    return { text, usage };
  });
}

function wireRequest(settings: ProviderSettings, request: GenerationRequest, streamed: boolean) {
  return { ...settings, body: requestBody(settings, request, streamed) };
}

export function createOpenAiCompatibleNarrator(config: LlmConfig): NarratorProvider {
  const settings: ProviderSettings = {
    url: `${config.baseUrl}/chat/completions`,
    // A local server (llama.cpp, Ollama) needs no key; a hosted one answers 401 without it.
    headers: config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {},
    model: config.model,
    timeoutMs: config.timeoutMs,
    secrets: config.apiKey ? [config.apiKey] : [],
  };
  return {
    id: 'openai',
    model: config.model,
    generate: (request, onDelta) => (onDelta ? stream(settings, request, onDelta) : complete(settings, request)),
  };
}
