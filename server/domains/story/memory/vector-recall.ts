// The memory bank's vectors, with an embeddings provider (EMBEDDINGS_PROVIDER): the passages the
// bank cut are embedded in batches after it indexes them, off every turn's path, and a turn's action
// is embedded to rank the story's passages by cosine (vector-cache.ts), a ranking recall.ts fuses
// with full text. Every call is a paid call: admitted against the player's hour and month before it
// is made (ledger kind 'embedding'), recorded after (a turn's query once its vector is handed back,
// so the first word never waits on the ledger). Nothing here fails a turn: a refused, failed or
// slow query embedding (EMBEDDINGS_QUERY_TIMEOUT_MS) leaves the turn to full text, and passages left
// unembedded wait for a later run, found by full text meanwhile.
import { setImmediate as nextTurn } from 'node:timers/promises';
import {
  EmbeddingsError,
  type EmbeddingsConfig,
  type EmbeddingsProvider,
  type EmbeddingResult,
} from '@server/ai/embeddings/types';
import { loadTokenCounter } from '@server/ai/llm/tokenizer';
import type { Repositories } from '@server/db/repositories';
import { BoundedCache } from '@server/kernel/bounded-cache';
import type { Log } from '@server/kernel/log';
import type { Allowance } from '../../limits/allowance';
import { createVectorCache, nearest, type NearVector } from './vector-cache';

/** Passages per embedding call: a few thousand tokens, well inside every provider's batch limits. */
export const EMBED_BATCH = 32;
/** Calls per run: an imported story of thousands of passages is embedded over a few runs. */
export const EMBED_BATCHES_PER_RUN = 8;
/** Vector neighbours a turn considers, as many as full text's candidates (recall.ts). */
export const VECTOR_CANDIDATES = 16;
/** Query vectors kept by text, so asking again (retry, another version) costs no call. */
const QUERY_CACHE_SIZE = 256;
/** The longest query embedded: the action's opening says what it is about. */
const QUERY_MAX_CHARS = 2000;

export interface VectorRecallDeps {
  repos: Pick<Repositories, 'memoryVectors' | 'usage'>;
  provider: EmbeddingsProvider;
  allowance: Pick<Allowance, 'admitOrNull'>;
  config: Pick<EmbeddingsConfig, 'queryTimeoutMs' | 'cacheBytes'>;
  now: () => Date;
  log: Log;
}

export interface VectorQuery {
  userId: number;
  storyId: number;
  /** The action, whose meaning the passages are compared with. */
  text: string;
  /** Only passages of messages before this one (the verbatim window's oldest) are ranked. */
  beforeId: number;
}

/** Why a turn's vectors could not help it, for the log and the benchmarks. */
export type VectorMiss = 'no-vectors' | 'refused' | 'failed';

export function createVectorRecall(deps: VectorRecallDeps) {
  const { provider } = deps;
  const cache = createVectorCache({ repos: deps.repos, capBytes: deps.config.cacheBytes });
  const queries = new BoundedCache<string, Float32Array>(QUERY_CACHE_SIZE);
  /** Never aborted: a batch call ends by its own timeout (EMBEDDINGS_TIMEOUT_MS). */
  const noSignal = new AbortController().signal;

  /** Ledger rows and reservations still being settled after a query's vector was handed back. */
  const settling = new Set<Promise<void>>();

  /**
   * One embedding call, admitted before it is made; null when the hour or the month refuses it. Its
   * ledger row is written, and its reservation given back, after the vectors are handed over when
   * `settleLater` (a turn's query: the first word does not wait on bookkeeping); before, otherwise.
   */
  async function embed(
    userId: number,
    storyId: number,
    inputs: string[],
    options: { timeoutMs?: number; settleLater?: boolean } = {},
  ): Promise<Float32Array[] | null> {
    const count = await loadTokenCounter();
    const tokens = inputs.reduce((sum, text) => sum + count(text), 0);
    const hold = await deps.allowance.admitOrNull(userId, 'embedding', tokens);
    if (!hold) return null;
    let result: EmbeddingResult;
    try {
      result = await provider.embed({ inputs, signal: noSignal, timeoutMs: options.timeoutMs });
    } catch (error) {
      await hold.release();
      throw error;
    }
    const settle = async () => {
      try {
        await deps.repos.usage.record({
          userId,
          storyId,
          kind: 'embedding',
          provider: provider.id,
          model: provider.model,
          inputTokens: result.inputTokens ?? tokens,
          outputTokens: 0,
          createdAt: deps.now(),
        });
      } finally {
        await hold.release();
      }
    };
    if (!options.settleLater) {
      await settle();
      return result.vectors;
    }
    const settled = settle()
      .catch((error: unknown) =>
        deps.log.warn({ userId, storyId, error: String(error) }, 'could not record a query embedding in the ledger'),
      )
      .finally(() => settling.delete(settled));
    settling.add(settled);
    return result.vectors;
  }

  async function queryVector(query: VectorQuery): Promise<Float32Array | null> {
    const text = query.text.slice(0, QUERY_MAX_CHARS);
    const known = queries.get(text);
    if (known) return known;
    const [vector] =
      (await embed(query.userId, query.storyId, [text], {
        timeoutMs: deps.config.queryTimeoutMs,
        settleLater: true,
      })) ?? [];
    if (!vector) return null;
    return queries.set(text, vector);
  }

  return {
    /**
     * Embeds the story's live passages that have no vector yet (newest first, a few batches per
     * run). Stops at the first refusal or failure: the next run after a fold tries again.
     */
    async embedPassages(storyId: number): Promise<void> {
      for (let batch = 0; batch < EMBED_BATCHES_PER_RUN; batch += 1) {
        const passages = await deps.repos.memoryVectors.unembedded(storyId, provider.model, EMBED_BATCH);
        if (passages.length === 0) return;
        let vectors: Float32Array[] | null;
        try {
          vectors = await embed(
            passages[0].userId,
            storyId,
            passages.map((p) => p.text),
          );
        } catch (error) {
          if (!(error instanceof EmbeddingsError)) throw error;
          deps.log.warn(
            { storyId, failure: error.failure, detail: error.detail },
            'embedding passages failed; the next run tries again',
          );
          return;
        }
        if (!vectors) return;
        await deps.repos.memoryVectors.save(
          storyId,
          provider.model,
          passages.map((p, i) => ({ passageId: p.id, vector: vectors[i] })),
        );
        if (passages.length < EMBED_BATCH) return;
        await nextTurn();
      }
    },

    /**
     * The story's shown passages before `beforeId` nearest in meaning to the query, best first (at
     * most VECTOR_CANDIDATES); or why there are none. Never throws.
     */
    async search(query: VectorQuery): Promise<NearVector[] | VectorMiss> {
      try {
        // A story whose vectors are held has some: its query is embedded while they are brought up
        // to date. A story not held is read first, so one with no vectors costs no call.
        const asked = cache.holds(query.storyId, provider.model) ? queryVector(query) : undefined;
        asked?.catch(() => undefined); // a rejection is read below; it must not go unhandled meanwhile
        const vectors = await cache.vectorsOf(query.storyId, provider.model);
        if (vectors.vectors.length === 0) return 'no-vectors';
        const vector = await (asked ?? queryVector(query));
        if (!vector) return 'refused';
        // Twice the candidates: some may be of passages no longer shown, which the cache still holds.
        const near = nearest(vectors, vector, query.beforeId, 2 * VECTOR_CANDIDATES);
        const live = new Set(
          await deps.repos.memoryVectors.live(
            query.storyId,
            near.map((n) => n.passageId),
          ),
        );
        return near.filter((n) => live.has(n.passageId)).slice(0, VECTOR_CANDIDATES);
      } catch (error) {
        const detail = error instanceof EmbeddingsError ? error.detail : String(error);
        deps.log.warn({ storyId: query.storyId, detail }, 'the query embedding failed; this turn recalls by full text');
        return 'failed';
      }
    },

    /** Resolves when every query's ledger row is written (tests, benchmarks and shutdown wait on it). */
    async idle(): Promise<void> {
      while (settling.size > 0) await Promise.all([...settling]);
    },

    /** The cache, for tests and benchmarks. */
    cache,
  };
}
export type VectorRecall = ReturnType<typeof createVectorRecall>;
