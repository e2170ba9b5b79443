// Chooses the embeddings provider from EMBEDDINGS_PROVIDER. A new provider is a new adapter file plus
// one line here; 'none' means no vectors at all, so the memory bank recalls by full text alone.
import { createOpenAiEmbeddingsProvider } from './openai';
import type { EmbeddingsConfig, EmbeddingsProvider, EmbeddingsProviderId } from './types';

const FACTORIES: Record<Exclude<EmbeddingsProviderId, 'none'>, (config: EmbeddingsConfig) => EmbeddingsProvider> = {
  openai: createOpenAiEmbeddingsProvider,
};

export function createEmbeddingsProvider(config: EmbeddingsConfig): EmbeddingsProvider | null {
  return config.provider === 'none' ? null : FACTORIES[config.provider](config);
}
