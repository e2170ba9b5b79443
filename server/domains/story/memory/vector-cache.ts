// The vectors of the stories being played, held in this process under a cap (EMBEDDINGS_CACHE_MB):
// a turn compares its query with every vector of its story, and reading a few thousand vectors from
// the database each turn would cost more than the comparison. An entry is brought up to date by
// reading only the vectors written since its last read (memory_vectors.seq), which also sees those
// another instance wrote; an entry older than ENTRY_MAX_AGE_MS is read again whole, for a write that
// committed after a later one was read. The least recently used stories leave first. The cache may
// hold vectors of passages no longer shown: the search checks its winners against the database.
import type { Repositories } from '@server/db/repositories';
import { storedVector } from '@server/db/repositories/memory-vectors';

/** How long an entry is kept up to date incrementally before it is read again whole. */
export const ENTRY_MAX_AGE_MS = 10 * 60_000;
/** What an entry's bookkeeping costs per vector beside its bytes (ids, seq, norm, array slots). */
const PER_VECTOR_BYTES = 96;

export interface StoryVectors {
  model: string;
  /** The newest write read so far. */
  seq: number;
  passageIds: number[];
  messageIds: number[];
  seqs: number[];
  /** As stored: a signed byte a dimension (memory-vectors.ts quantized). */
  vectors: Int8Array[];
  /** Each vector's length, so that a dot product with the unit query becomes a cosine. */
  norms: number[];
  /** Each passage's place in the arrays. */
  at: Map<number, number>;
  bytes: number;
  readAt: number;
}

export interface NearVector {
  passageId: number;
  messageId: number;
  /** Cosine similarity with the query (both are unit length). */
  similarity: number;
}

/**
 * The dot product of the query and a stored vector, four sums at once (V8 runs it about twice as
 * fast as one sum): 3.5 ms for a 1,000-turn story's 2,813 stored vectors of 1,536 dimensions here.
 */
export function dot(a: Float32Array, b: Float32Array | Int8Array): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  const whole = a.length - (a.length % 4);
  let i = 0;
  for (; i < whole; i += 4) {
    s0 += a[i] * b[i];
    s1 += a[i + 1] * b[i + 1];
    s2 += a[i + 2] * b[i + 2];
    s3 += a[i + 3] * b[i + 3];
  }
  for (; i < a.length; i += 1) s0 += a[i] * b[i];
  return s0 + s1 + s2 + s3;
}

/** A stored vector's length (a plain loop: reduce's callback a component cost more than the read). */
function normOf(vector: Int8Array): number {
  let sum = 0;
  for (let i = 0; i < vector.length; i += 1) sum += vector[i] * vector[i];
  return Math.sqrt(sum);
}

/**
 * The `limit` vectors of passages before message `beforeId` most similar to `query`, best first;
 * equal similarities go to the newer message. Vectors of another dimension (another model's) are
 * skipped.
 */
export function nearest(entry: StoryVectors, query: Float32Array, beforeId: number, limit: number): NearVector[] {
  const best: NearVector[] = [];
  const better = (a: NearVector, b: NearVector) =>
    a.similarity > b.similarity || (a.similarity === b.similarity && a.messageId > b.messageId);
  for (let i = 0; i < entry.vectors.length; i += 1) {
    const vector = entry.vectors[i];
    if (entry.messageIds[i] >= beforeId || vector.length !== query.length) continue;
    const similarity = entry.norms[i] > 0 ? dot(query, vector) / entry.norms[i] : 0;
    const near = { passageId: entry.passageIds[i], messageId: entry.messageIds[i], similarity };
    if (best.length === limit && !better(near, best[best.length - 1])) continue;
    // Insertion into a short sorted list: limit is a few dozen, the story thousands.
    let place = best.length;
    while (place > 0 && better(near, best[place - 1])) place -= 1;
    best.splice(place, 0, near);
    if (best.length > limit) best.pop();
  }
  return best;
}

export function createVectorCache(deps: {
  repos: Pick<Repositories, 'memoryVectors'>;
  capBytes: number;
  now?: () => number;
}) {
  const now = deps.now ?? Date.now;
  /** In use order: the least recently used first. */
  const entries = new Map<number, StoryVectors>();
  let total = 0;

  const empty = (model: string): StoryVectors => ({
    model,
    seq: 0,
    passageIds: [],
    messageIds: [],
    seqs: [],
    vectors: [],
    norms: [],
    at: new Map(),
    bytes: 0,
    readAt: now(),
  });

  function drop(storyId: number): void {
    const entry = entries.get(storyId);
    if (!entry) return;
    total -= entry.bytes;
    entries.delete(storyId);
  }

  return {
    /** The story's vectors of `model`, up to date with the database. */
    async vectorsOf(storyId: number, model: string): Promise<StoryVectors> {
      let entry = entries.get(storyId);
      if (entry && (entry.model !== model || now() - entry.readAt > ENTRY_MAX_AGE_MS)) {
        drop(storyId);
        entry = undefined;
      }
      const fresh = entry === undefined;
      entry ??= empty(model);
      const rows = await deps.repos.memoryVectors.since(storyId, model, entry.seq);
      const before = entry.bytes;
      for (const row of rows) {
        const vector = storedVector(row.vector);
        const norm = normOf(vector);
        const known = entry.at.get(row.passageId);
        entry.seq = Math.max(entry.seq, row.seq);
        if (known !== undefined) {
          // Two reads running at once may answer one passage's rewrite out of order: the newer stays.
          if (entry.seqs[known] >= row.seq) continue;
          entry.bytes += vector.byteLength - entry.vectors[known].byteLength;
          entry.vectors[known] = vector;
          entry.norms[known] = norm;
          entry.seqs[known] = row.seq;
          continue;
        }
        entry.at.set(row.passageId, entry.vectors.length);
        entry.passageIds.push(row.passageId);
        entry.messageIds.push(row.messageId);
        entry.seqs.push(row.seq);
        entry.vectors.push(vector);
        entry.norms.push(norm);
        entry.bytes += vector.byteLength + PER_VECTOR_BYTES;
      }
      // Used now: it moves to the end of the order.
      if (!fresh) {
        entries.delete(storyId);
        total -= before;
      }
      if (entry.bytes > deps.capBytes) return entry; // too big to keep: read whole again next time
      entries.set(storyId, entry);
      total += entry.bytes;
      for (const [oldest] of entries) {
        if (total <= deps.capBytes || oldest === storyId) break;
        drop(oldest);
      }
      return entry;
    },

    /** Whether the story's vectors of `model` are held (some at least): a search may then ask for the query's vector at once. */
    holds: (storyId: number, model: string) => {
      const entry = entries.get(storyId);
      return entry !== undefined && entry.model === model && entry.vectors.length > 0;
    },
    /** Bytes held now, for tests and benchmarks. */
    heldBytes: () => total,
    /** Stories held now, least recently used first. */
    heldStories: () => [...entries.keys()],
  };
}
export type VectorCache = ReturnType<typeof createVectorCache>;
