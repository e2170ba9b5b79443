// The embeddings interface every provider implements: texts in, one unit-length vector per text out,
// in order, all of one dimension. The memory bank embeds its passages in batches off the turn's path,
// and a turn embeds its query; a provider either answers or throws an EmbeddingsError whose detail
// only the server log sees.
import type { ProviderFailure } from '../provider-http';

export {
  EMBEDDINGS_PROVIDERS,
  type EmbeddingsConfig,
  type EmbeddingsProviderId,
} from '@server/kernel/config/embeddings';
import type { EmbeddingsProviderId } from '@server/kernel/config/embeddings';

/** Inputs one call may carry: OpenAI takes 2,048, local servers fewer; the memory bank sends fewer still. */
export const EMBEDDING_BATCH_MAX = 64;
/** The widest vector accepted (OpenAI's largest model gives 3,072; some local ones 4,096). */
export const EMBEDDING_DIMENSIONS_MAX = 8192;

export interface EmbeddingRequest {
  /** 1 to EMBEDDING_BATCH_MAX texts, none empty. */
  inputs: string[];
  signal: AbortSignal;
  /**
   * The deadline of this call (ms) when it is not the provider's EMBEDDINGS_TIMEOUT_MS: a turn's
   * query passes EMBEDDINGS_QUERY_TIMEOUT_MS, since the player waits for it before the first word.
   */
  timeoutMs?: number;
}

export interface EmbeddingResult {
  /** One per input, in the inputs' order, scaled to unit length (so a dot product is the cosine). */
  vectors: Float32Array[];
  /** The tokens the provider reports it read, or null when it reports none. */
  inputTokens: number | null;
}

export interface EmbeddingsProvider {
  readonly id: Exclude<EmbeddingsProviderId, 'none'>;
  readonly model: string;
  embed(request: EmbeddingRequest): Promise<EmbeddingResult>;
}

/**
 * Why an embedding call failed. `timeout`: no answer in time; `unavailable`: network failure, 5xx or
 * 429; `misconfigured`: 401/403/404/400 (bad key, model or base URL); `invalid_output`: the answer was
 * not one finite vector per input of one dimension (not JSON, a count or a dimension that is wrong).
 */
export type EmbeddingsFailure = ProviderFailure;

export class EmbeddingsError extends Error {
  constructor(
    public readonly failure: EmbeddingsFailure,
    /** For the server log only: never sent to a client, never holds the key. */
    public readonly detail: string,
    options?: { cause?: unknown },
  ) {
    super(`embeddings ${failure}: ${detail}`, options);
    this.name = 'EmbeddingsError';
  }
}
