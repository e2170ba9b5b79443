// Any OpenAI-compatible chat-completions endpoint: OpenAI, OpenRouter, vLLM, llama.cpp server,
// Ollama's /v1, LM Studio. includeUsage asks for token usage on streamed answers too.
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LlmConfig } from '@server/config';
import { runLanguageModel } from './ai-sdk';
import type { NarratorProvider } from './types';

export function createOpenAiCompatibleNarrator(config: LlmConfig): NarratorProvider {
  const provider = createOpenAICompatible({ name: 'openai-compatible', baseURL: config.baseUrl, apiKey: config.apiKey, includeUsage: true });
  const model = provider.chatModel(config.model);
  return {
    id: 'openai',
    model: config.model,
    generate: (request, onDelta) => runLanguageModel(model, request, config.timeoutMs, onDelta),
  };
}
