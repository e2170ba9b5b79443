// Anthropic's Messages API (or a compatible gateway at LLM_BASE_URL). Its prompt cache needs
// explicit breakpoints, which the stable prompt layout makes worth setting: after the system
// prompt, after the premise-and-memory message, and after the last turn before the new action.
// Between memory folds each turn's prompt extends the previous one, so all three prefixes are reused.
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

const API_VERSION = '2023-06-01';
const CACHE_CONTROL = { type: 'ephemeral' } as const;
/** Anthropic's stop reasons that mean a whole reply: a natural end, a stop sequence, the length cap. */
const FINISHED = new Set(['end_turn', 'stop_sequence', 'max_tokens']);

function requestBody(settings: ProviderSettings, request: GenerationRequest, stream: boolean) {
  const lastBeforeAction = request.messages.length - 2;
  return {
    model: settings.model,
    max_tokens: request.maxOutputTokens,
    temperature: request.temperature,
    system: [{ type: 'text', text: request.system, cache_control: CACHE_CONTROL }],
    messages: request.messages.map((m, i) => ({
      role: m.role,
      content:
        i === 0 || i === lastBeforeAction
          ? [{ type: 'text', text: m.content, cache_control: CACHE_CONTROL }]
          : m.content,
    })),
    ...(stream ? { stream: true } : {}),
  };
}

/**
 * Input is billed in three parts once caching is on: fresh, cache writes and cache reads. The ledger
 * counts them all as input and the reads as its cached part; cache writes (which Anthropic bills at
 * 1.25 times the input price) are priced as ordinary input, LLM_PRICE_INPUT.
 */
function usageOf(usage: unknown): GenerationUsage {
  const fresh = count(field(usage, 'input_tokens'));
  const reads = count(field(usage, 'cache_read_input_tokens'));
  const outputTokens = count(field(usage, 'output_tokens'));
  if (fresh === undefined) return { inputTokens: undefined, outputTokens };
  return {
    inputTokens: fresh + (count(field(usage, 'cache_creation_input_tokens')) ?? 0) + (reads ?? 0),
    outputTokens,
    ...(reads !== undefined ? { cachedInputTokens: reads } : {}),
  };
}

function errorEvent(call: WireCall, data: unknown): never {
  const message = field(field(data, 'error'), 'message');
  throw fail(
    call,
    'unavailable',
    `provider error mid-answer: ${typeof message === 'string' ? message : JSON.stringify(data).slice(0, 300)}`,
  );
}

async function complete(settings: ProviderSettings, request: GenerationRequest): Promise<GenerationResult> {
  return callProvider(wireRequest(settings, request, false), async (response, call) => {
    const body = await readJson(response, call);
    if (field(body, 'type') === 'error') errorEvent(call, body);
    checkFinish(call, field(body, 'stop_reason'), FINISHED, 'stop reason');
    const content = field(body, 'content');
    const text = Array.isArray(content)
      ? content.map((block) => (field(block, 'type') === 'text' ? String(field(block, 'text') ?? '') : '')).join('')
      : '';
    return { text, usage: usageOf(field(body, 'usage')) };
  });
}

async function stream(
  settings: ProviderSettings,
  request: GenerationRequest,
  onDelta: (text: string) => void,
): Promise<GenerationResult> {
  return callProvider(wireRequest(settings, request, true), async (response, call) => {
    let text = '';
    let stopReason: unknown;
    let stopped = false;
    let usage: GenerationUsage = { inputTokens: undefined, outputTokens: undefined };
    await readEvents(response, call, (event) => {
      const data = parseEventData(call, event.data);
      switch (field(data, 'type')) {
        case 'content_block_delta': {
          const delta = field(data, 'delta');
          const piece = field(delta, 'type') === 'text_delta' ? field(delta, 'text') : undefined;
          if (typeof piece === 'string' && piece) {
            text += piece;
            onDelta(piece);
          }
          break;
        }
        case 'message_start': {
          usage = usageOf(field(field(data, 'message'), 'usage'));
          break;
        }
        case 'message_delta':
          stopReason = field(field(data, 'delta'), 'stop_reason') ?? stopReason;
          // Output tokens here are cumulative for the whole answer.
          usage.outputTokens = count(field(field(data, 'usage'), 'output_tokens')) ?? usage.outputTokens;
          break;
        case 'message_stop':
          stopped = true;
          break;
        case 'error':
          errorEvent(call, data);
      }
    });
    if (!stopped) throw fail(call, 'unavailable', 'stream ended without message_stop');
    checkFinish(call, stopReason, FINISHED, 'stop reason');
    return { text, usage };
  });
}

function wireRequest(settings: ProviderSettings, request: GenerationRequest, streamed: boolean) {
  return { ...settings, body: requestBody(settings, request, streamed) };
}

export function createAnthropicNarrator(config: LlmConfig): NarratorProvider {
  const settings: ProviderSettings = {
    url: `${config.baseUrl}/messages`,
    // Start-up requires LLM_API_KEY for Anthropic (server/kernel/config/llm.ts), so it is always set here.
    headers: { 'x-api-key': config.apiKey ?? '', 'anthropic-version': API_VERSION },
    model: config.model,
    timeoutMs: config.timeoutMs,
    secrets: config.apiKey ? [config.apiKey] : [],
  };
  return {
    id: 'anthropic',
    model: config.model,
    generate: (request, onDelta) => (onDelta ? stream(settings, request, onDelta) : complete(settings, request)),
  };
}
