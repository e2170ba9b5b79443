// The memory bank's vectors (db/schema/memory.ts, memory_vectors): the live passages still waiting
// for one, their writing, and the incremental reads of a story's vectors that the process's vector
// cache keeps up with. A vector is stored as one signed byte per dimension (base64 in a write, so
// one text-array parameter carries a batch on both drivers): see quantized().
import { sql } from 'drizzle-orm';
import type { Db } from '../client';
import { executePrepared } from './prepared';
import { rows } from './sql-values';

/** A live passage with no vector of the model asked for, and its story's player (whose allowance pays). */
export interface UnembeddedPassage {
  id: number;
  text: string;
  userId: number;
}

/** A vector as read: its passage, the passage's message (to skip the verbatim window), its write order, and its bytes. */
export interface StoredVector {
  passageId: number;
  messageId: number;
  seq: number;
  vector: Uint8Array;
}

/**
 * A vector as stored: each value scaled so the largest is ±127 and rounded to a signed byte. A
 * quarter of float32's size in the database, on the wire and in every process's cache (a
 * 1,000-turn story's 2,813 vectors of 1,536 dimensions: 4.3 MB instead of 17), for a cosine that
 * moves by about 0.01, which changes a ranking only between passages that near.
 */
export function quantized(vector: Float32Array): Buffer {
  let largest = 0;
  for (let i = 0; i < vector.length; i += 1) {
    const magnitude = Math.abs(vector[i]);
    if (magnitude > largest) largest = magnitude;
  }
  const scale = largest > 0 ? 127 / largest : 0;
  // Written through a typed array, not Buffer.writeInt8 a byte at a time (a checked call each).
  const values = new Int8Array(vector.length);
  for (let i = 0; i < vector.length; i += 1) values[i] = Math.round(vector[i] * scale);
  return Buffer.from(values.buffer, values.byteOffset, values.byteLength);
}

/** Stored bytes as the signed values they hold (copied out of the driver's buffer). */
export function storedVector(bytes: Uint8Array): Int8Array {
  return new Int8Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
}

export function createMemoryVectorsRepository(db: Db) {
  return {
    /**
     * The story's newest live passages with text and no vector of `model` (at most `limit`): the
     * recent past is what a turn is likeliest to recall while the rest waits for later runs.
     */
    async unembedded(storyId: number, model: string, limit: number): Promise<UnembeddedPassage[]> {
      return rows<UnembeddedPassage>(
        db,
        sql`select p.id, p.text, s.user_id as "userId"
            from memory_passages p join stories s on s.id = p.story_id
            left join memory_vectors v on v.passage_id = p.id and v.model = ${model}
            where p.story_id = ${storyId} and p.live and p.length > 0 and v.passage_id is null
            order by p.id desc limit ${limit}`,
      );
    },

    /**
     * Writes the vectors of these passages (one made by another model is replaced); a passage gone
     * meanwhile (its story deleted, its message erased in pieces) is skipped.
     */
    async save(storyId: number, model: string, vectors: Array<{ passageId: number; vector: Float32Array }>) {
      if (vectors.length === 0) return;
      await db.execute(
        sql`insert into memory_vectors (passage_id, story_id, model, vector)
            select v.id, ${storyId}, ${model}, decode(v.b64, 'base64')
            from unnest(${sql.param(vectors.map((v) => v.passageId))}::int[],
              ${sql.param(vectors.map((v) => quantized(v.vector).toString('base64')))}::text[]) as v(id, b64)
            join memory_passages p on p.id = v.id and p.story_id = ${storyId}
            order by v.id
            on conflict (passage_id) do update set model = excluded.model, vector = excluded.vector, seq = default`,
      );
    },

    /** The story's vectors of `model` written after `afterSeq`, oldest first (all of them from 0). */
    async since(storyId: number, model: string, afterSeq: number): Promise<StoredVector[]> {
      return executePrepared<StoredVector>(
        db,
        'memory_vectors_since',
        sql`select v.passage_id as "passageId", p.message_id as "messageId", v.seq::float8 as seq, v.vector
            from memory_vectors v join memory_passages p on p.id = v.passage_id
            where v.story_id = ${storyId} and v.model = ${model} and v.seq > ${afterSeq}
            order by v.seq`,
      );
    },

    /** Which of these passages of the story are live (their message shows their version). */
    async live(storyId: number, ids: number[]): Promise<number[]> {
      if (ids.length === 0) return [];
      const found = await rows<{ id: number }>(
        db,
        sql`select id from memory_passages where id = any(${sql.param(ids)}::int[]) and story_id = ${storyId} and live`,
      );
      return found.map((r) => r.id);
    },
  };
}
export type MemoryVectorsRepository = ReturnType<typeof createMemoryVectorsRepository>;
