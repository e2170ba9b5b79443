// Anthropic's Messages API (or a compatible gateway at LLM_BASE_URL). Its prompt cache needs
// explicit breakpoints, which the stable prompt layout makes worth setting.
import { createAnthropic } from '@ai-sdk/anthropic';
import type { LlmConfig } from '@server/config';
import { runLanguageModel } from './ai-sdk';
import type { NarratorProvider } from './types';

const CACHE = { anthropic: { cacheControl: { type: 'ephemeral' } } };

export function createAnthropicNarrator(config: LlmConfig): NarratorProvider {
  const provider = createAnthropic({ baseURL: config.baseUrl, apiKey: config.apiKey });
  const model = provider.messages(config.model);
  return {
    id: 'anthropic',
    model: config.model,
    generate: (request, onDelta) => runLanguageModel(model, request, config.timeoutMs, onDelta, CACHE),
  };
}
