// Embeddings for the memory bank's recall (EMBEDDINGS_*): off unless a provider is named. Full-text
// ranking (BM25) always runs; with a provider, each passage's vector is stored and the turn's query
// is embedded too, and the two rankings are fused (domains/story/memory/fusion.ts).
import { z } from 'zod';
import { httpUrl, OPENAI_BASE_URL, positiveInt, providerId } from './env';
import { setting, type ParsedSettings } from './setting';

export const EMBEDDINGS_PROVIDERS = ['none', 'openai'] as const;
export type EmbeddingsProviderId = (typeof EMBEDDINGS_PROVIDERS)[number];

export const embeddingsSettings = {
  EMBEDDINGS_PROVIDER: setting({
    group: 'Embeddings',
    doc: "Embeddings for the memory bank's recall: `none` (full text alone) or `openai` (any compatible server).",
    default: 'none',
    example: 'openai',
    schema: providerId('EMBEDDINGS_PROVIDER', EMBEDDINGS_PROVIDERS),
  }),
  EMBEDDINGS_BASE_URL: setting({
    group: 'Embeddings',
    doc: 'The embeddings API root, e.g. `http://localhost:11434/v1` for Ollama.',
    default: OPENAI_BASE_URL,
    example: 'http://localhost:11434/v1',
    schema: httpUrl('EMBEDDINGS_BASE_URL'),
  }),
  EMBEDDINGS_API_KEY: setting({
    group: 'Embeddings',
    doc: "The embeddings service's key (a Bearer token; local servers take none).",
    secret: true,
    schema: z.string().trim(),
  }),
  EMBEDDINGS_MODEL: setting({
    group: 'Embeddings',
    doc: 'Model name; required for `openai` (`text-embedding-3-small`, `nomic-embed-text`, …).',
    example: 'nomic-embed-text',
    schema: z.string().trim(),
  }),
  EMBEDDINGS_TIMEOUT_MS: setting({
    group: 'Embeddings',
    doc: 'Longest one call embedding a batch of passages may take.',
    default: '30000',
    schema: positiveInt('EMBEDDINGS_TIMEOUT_MS'),
  }),
  EMBEDDINGS_QUERY_TIMEOUT_MS: setting({
    group: 'Embeddings',
    doc: "Longest a turn waits for its query's vector before recalling by full text alone.",
    default: '1500',
    schema: positiveInt('EMBEDDINGS_QUERY_TIMEOUT_MS'),
  }),
  EMBEDDINGS_MAX_PER_HOUR: setting({
    group: 'Embeddings',
    doc: 'Embedding calls each player may cause per hour; past it recall uses full text alone and passages wait.',
    default: '600',
    schema: positiveInt('EMBEDDINGS_MAX_PER_HOUR'),
  }),
  EMBEDDINGS_CACHE_MB: setting({
    group: 'Embeddings',
    doc: 'Vectors cached in memory per process, in MB; least recently used stories leave first.',
    default: '64',
    schema: positiveInt('EMBEDDINGS_CACHE_MB'),
  }),
};

type EmbeddingsEnv = ParsedSettings<typeof embeddingsSettings>;

/** Rules that tie the embeddings variables together. */
export function checkEmbeddings(e: EmbeddingsEnv): string[] {
  if (e.EMBEDDINGS_PROVIDER !== 'none' && !e.EMBEDDINGS_MODEL)
    return [
      `EMBEDDINGS_MODEL: EMBEDDINGS_MODEL is required when EMBEDDINGS_PROVIDER is ${e.EMBEDDINGS_PROVIDER} (for example text-embedding-3-small or nomic-embed-text)`,
    ];
  return [];
}

/** Embeddings for recall (`config.embeddings`), read from the EMBEDDINGS_* variables. */
export function embeddingsConfig(e: EmbeddingsEnv) {
  return {
    provider: e.EMBEDDINGS_PROVIDER,
    baseUrl: e.EMBEDDINGS_BASE_URL.replace(/\/+$/, ''),
    apiKey: e.EMBEDDINGS_API_KEY || undefined,
    model: e.EMBEDDINGS_MODEL ?? '',
    /** Longest one call embedding a batch of passages may take (off any player's path). */
    timeoutMs: e.EMBEDDINGS_TIMEOUT_MS,
    /**
     * Longest the turn's query embedding may take: it runs before the first word, so past this the
     * turn recalls by full text alone rather than keep the player waiting.
     */
    queryTimeoutMs: e.EMBEDDINGS_QUERY_TIMEOUT_MS,
    /** Embedding calls (a batch of passages, or a turn's query) one player may cause per hour. */
    maxPerHour: e.EMBEDDINGS_MAX_PER_HOUR,
    /** Memory held by the vectors cached in this process (MB); least recently used stories leave first. */
    cacheBytes: e.EMBEDDINGS_CACHE_MB * 1024 * 1024,
  };
}

export type EmbeddingsConfig = ReturnType<typeof embeddingsConfig>;
