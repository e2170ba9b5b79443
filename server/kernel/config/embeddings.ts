// Embeddings for the memory bank's recall (EMBEDDINGS_*): off unless a provider is named. Full-text
// ranking (BM25) always runs; with a provider, each passage's vector is stored and the turn's query
// is embedded too, and the two rankings are fused (domains/story/memory/fusion.ts).
import { z } from 'zod';
import { httpUrl, OPENAI_BASE_URL, positiveInt, providerId } from './env';

export const EMBEDDINGS_PROVIDERS = ['none', 'openai'] as const;
export type EmbeddingsProviderId = (typeof EMBEDDINGS_PROVIDERS)[number];

export interface EmbeddingsConfig {
  provider: EmbeddingsProviderId;
  baseUrl: string;
  apiKey: string | undefined;
  model: string;
  /** Longest one call embedding a batch of passages may take (off any player's path). */
  timeoutMs: number;
  /**
   * Longest the turn's query embedding may take: it runs before the first word, so past this the
   * turn recalls by full text alone rather than keep the player waiting.
   */
  queryTimeoutMs: number;
  /** Embedding calls (a batch of passages, or a turn's query) one player may cause per hour. */
  maxPerHour: number;
  /** Memory held by the vectors cached in this process (MB); least recently used stories leave first. */
  cacheBytes: number;
}

export const embeddingsEnv = {
  EMBEDDINGS_PROVIDER: providerId('EMBEDDINGS_PROVIDER', EMBEDDINGS_PROVIDERS),
  EMBEDDINGS_BASE_URL: httpUrl('EMBEDDINGS_BASE_URL').default(OPENAI_BASE_URL),
  EMBEDDINGS_API_KEY: z.string().trim().optional(),
  EMBEDDINGS_MODEL: z.string().trim().optional(),
  EMBEDDINGS_TIMEOUT_MS: positiveInt('EMBEDDINGS_TIMEOUT_MS').default(30_000),
  EMBEDDINGS_QUERY_TIMEOUT_MS: positiveInt('EMBEDDINGS_QUERY_TIMEOUT_MS').default(1_500),
  EMBEDDINGS_MAX_PER_HOUR: positiveInt('EMBEDDINGS_MAX_PER_HOUR').default(600),
  EMBEDDINGS_CACHE_MB: positiveInt('EMBEDDINGS_CACHE_MB').default(64),
};

type EmbeddingsEnv = z.infer<z.ZodObject<typeof embeddingsEnv>>;

/** Rules that tie the embeddings variables together. */
export function checkEmbeddings(e: EmbeddingsEnv): string[] {
  if (e.EMBEDDINGS_PROVIDER !== 'none' && !e.EMBEDDINGS_MODEL)
    return [
      `EMBEDDINGS_MODEL: EMBEDDINGS_MODEL is required when EMBEDDINGS_PROVIDER is ${e.EMBEDDINGS_PROVIDER} (for example text-embedding-3-small or nomic-embed-text)`,
    ];
  return [];
}

export function embeddingsConfig(e: EmbeddingsEnv): EmbeddingsConfig {
  return {
    provider: e.EMBEDDINGS_PROVIDER,
    baseUrl: e.EMBEDDINGS_BASE_URL.replace(/\/+$/, ''),
    apiKey: e.EMBEDDINGS_API_KEY || undefined,
    model: e.EMBEDDINGS_MODEL ?? '',
    timeoutMs: e.EMBEDDINGS_TIMEOUT_MS,
    queryTimeoutMs: e.EMBEDDINGS_QUERY_TIMEOUT_MS,
    maxPerHour: e.EMBEDDINGS_MAX_PER_HOUR,
    cacheBytes: e.EMBEDDINGS_CACHE_MB * 1024 * 1024,
  };
}
