// Chooses the narrator from LLM_PROVIDER. A new provider is a new adapter file plus one line here.
import type { LlmConfig, LlmProviderId } from '@server/kernel/config';
import { createAnthropicNarrator } from './anthropic';
import { createBuiltinNarrator } from './builtin';
import { createOpenAiCompatibleNarrator } from './openai-compatible';
import type { NarratorProvider } from './types';

const FACTORIES: Record<LlmProviderId, (config: LlmConfig) => NarratorProvider> = {
  builtin: createBuiltinNarrator,
  openai: createOpenAiCompatibleNarrator,
  anthropic: createAnthropicNarrator,
};

/** The highest temperature each provider accepts (Anthropic's range is 0-1): a story's higher one is sent as this. */
export const MAX_TEMPERATURE: Record<LlmProviderId, number> = { builtin: 2, openai: 2, anthropic: 1 };

export function createNarratorProvider(config: LlmConfig): NarratorProvider {
  return FACTORIES[config.provider](config);
}

/** How the admin usage card names the provider, and what it says while the demo narrator answers. */
export function describeProvider(config: LlmConfig): { provider: string; notice: string | null } {
  if (config.provider === 'builtin') {
    return {
      provider: 'Offline demo narrator (builtin)',
      notice:
        'Stories are written by the offline demo narrator, not an AI model. To connect a real model, set LLM_PROVIDER=openai (any OpenAI-compatible server) or anthropic, with LLM_BASE_URL, LLM_API_KEY and LLM_MODEL, and restart.',
    };
  }
  const label = config.provider === 'openai' ? 'OpenAI-compatible' : 'Anthropic';
  return { provider: `${label} (${config.model})`, notice: null };
}
