// The vector cache over a repository held in memory: it reads only what is new, keeps a rewritten
// passage's newer vector, leaves the least recently used stories first under its cap, reads a story
// again whole after ENTRY_MAX_AGE_MS or for another model; and the nearest-neighbour ranking.
import { describe, expect, it } from 'vitest';
import { quantized, storedVector, type StoredVector } from '@server/db/repositories/memory-vectors';
import { createVectorCache, dot, ENTRY_MAX_AGE_MS, nearest, type StoryVectors } from './vector-cache';

const unit = (...values: number[]) => {
  const norm = Math.hypot(...values);
  return new Float32Array(values.map((v) => v / norm));
};

function memoryRepository() {
  const rows: Array<StoredVector & { storyId: number; model: string }> = [];
  let seq = 0;
  const reads: Array<{ storyId: number; afterSeq: number }> = [];
  return {
    reads,
    write(storyId: number, passageId: number, vector: Float32Array, model = 'm1') {
      const existing = rows.findIndex((r) => r.passageId === passageId);
      if (existing >= 0) rows.splice(existing, 1);
      rows.push({ storyId, model, passageId, messageId: passageId * 10, seq: (seq += 1), vector: quantized(vector) });
    },
    memoryVectors: {
      since: (storyId: number, model: string, afterSeq: number) => {
        reads.push({ storyId, afterSeq });
        return Promise.resolve(
          rows
            .filter((r) => r.storyId === storyId && r.model === model && r.seq > afterSeq)
            .sort((a, b) => a.seq - b.seq),
        );
      },
    },
  };
}

const bytesOf = (dims: number, count: number) => count * (dims + 96);

describe('the vector cache', () => {
  it('reads a story whole once, then only the vectors written since', async () => {
    const repo = memoryRepository();
    repo.write(1, 1, unit(1, 0));
    repo.write(1, 2, unit(0, 1));
    const cache = createVectorCache({ repos: repo as never, capBytes: 1 << 20 });
    const first = await cache.vectorsOf(1, 'm1');
    expect(first.passageIds).toEqual([1, 2]);
    repo.write(1, 3, unit(1, 1));
    const second = await cache.vectorsOf(1, 'm1');
    expect(second.passageIds).toEqual([1, 2, 3]);
    expect(second.messageIds).toEqual([10, 20, 30]);
    expect(repo.reads).toEqual([
      { storyId: 1, afterSeq: 0 },
      { storyId: 1, afterSeq: 2 },
    ]);
    expect(cache.heldBytes()).toBe(bytesOf(2, 3));
  });

  it('replaces a rewritten passage in place and never with an older read', async () => {
    const repo = memoryRepository();
    repo.write(1, 1, unit(1, 0));
    const cache = createVectorCache({ repos: repo as never, capBytes: 1 << 20 });
    await cache.vectorsOf(1, 'm1');
    repo.write(1, 1, unit(0, 1));
    const entry = await cache.vectorsOf(1, 'm1');
    expect(entry.passageIds).toEqual([1]);
    expect([...entry.vectors[0]]).toEqual([0, 127]);
  });

  it('lets the least recently used story go first when the cap is passed', async () => {
    const repo = memoryRepository();
    for (const story of [1, 2, 3]) for (let p = 0; p < 4; p += 1) repo.write(story, story * 100 + p, unit(1, p));
    const cache = createVectorCache({ repos: repo as never, capBytes: bytesOf(2, 8) });
    await cache.vectorsOf(1, 'm1');
    await cache.vectorsOf(2, 'm1');
    await cache.vectorsOf(1, 'm1'); // story 1 used again: story 2 is now the oldest
    await cache.vectorsOf(3, 'm1');
    expect(cache.heldStories()).toEqual([1, 3]);
    expect(cache.heldBytes()).toBe(bytesOf(2, 8));
  });

  it('does not keep a story larger than the cap, but answers it whole', async () => {
    const repo = memoryRepository();
    for (let p = 1; p <= 5; p += 1) repo.write(7, p, unit(p, 1));
    const cache = createVectorCache({ repos: repo as never, capBytes: bytesOf(2, 4) });
    const entry = await cache.vectorsOf(7, 'm1');
    expect(entry.passageIds).toHaveLength(5);
    expect(cache.heldStories()).toEqual([]);
    expect(cache.heldBytes()).toBe(0);
  });

  it('reads again whole for another model and once an entry is old', async () => {
    const repo = memoryRepository();
    repo.write(1, 1, unit(1, 0));
    repo.write(1, 2, unit(1, 0, 0), 'm2');
    let clock = 0;
    const cache = createVectorCache({ repos: repo as never, capBytes: 1 << 20, now: () => clock });
    expect((await cache.vectorsOf(1, 'm1')).passageIds).toEqual([1]);
    expect((await cache.vectorsOf(1, 'm2')).passageIds).toEqual([2]);
    clock += ENTRY_MAX_AGE_MS + 1;
    await cache.vectorsOf(1, 'm2');
    expect(repo.reads.map((r) => r.afterSeq)).toEqual([0, 0, 0]);
    expect(cache.heldBytes()).toBe(bytesOf(3, 1));
  });
});

describe('stored vectors', () => {
  it('keep each value as a signed byte, the largest at ±127, and a cosine within about 0.01', () => {
    expect([...storedVector(quantized(new Float32Array([0.5, -1, 0.25, 0])))]).toEqual([64, -127, 32, 0]);
    expect([...storedVector(quantized(new Float32Array([0, 0])))]).toEqual([0, 0]);
    const a = unit(3, 1, -2, 0.5, 7, 0.01);
    const b = unit(2.5, 1.5, -1, 0.2, 6, -3);
    const stored = storedVector(quantized(b));
    expect(dot(a, stored) / Math.hypot(...stored)).toBeCloseTo(dot(a, b), 2);
  });
});

describe('dot', () => {
  it('sums the products, whatever the length past a multiple of four', () => {
    const a = new Float32Array([1, 2, 3, 4, 5, 6, 7]);
    const b = new Float32Array([7, 6, 5, 4, 3, 2, 1]);
    expect(dot(a, b)).toBe(7 + 12 + 15 + 16 + 15 + 12 + 7);
    expect(dot(a.subarray(0, 3), b.subarray(0, 3))).toBe(7 + 12 + 15);
    expect(dot(new Float32Array(0), new Float32Array(0))).toBe(0);
  });
});

describe('nearest', () => {
  const entry = (units: Float32Array[], messageIds: number[]): StoryVectors => {
    const vectors = units.map((u) => storedVector(quantized(u)));
    return {
      model: 'm1',
      seq: vectors.length,
      passageIds: vectors.map((_, i) => i + 1),
      messageIds,
      seqs: vectors.map((_, i) => i + 1),
      vectors,
      norms: vectors.map((v) => Math.hypot(...v)),
      at: new Map(vectors.map((_, i) => [i + 1, i])),
      bytes: 0,
      readAt: 0,
    };
  };

  it('ranks by cosine, keeps the best `limit` before the window, and skips other dimensions', () => {
    const story = entry(
      [unit(1, 0), unit(0.9, 0.1), unit(0, 1), unit(1, 0.05), unit(1, 0, 0), unit(1, 0)],
      [10, 20, 30, 40, 50, 60],
    );
    const near = nearest(story, unit(1, 0), 60, 3);
    expect(near.map((n) => n.passageId)).toEqual([1, 4, 2]);
    // Stored a byte a dimension, a cosine moves by about 0.01 at most.
    expect(near[0].similarity).toBeCloseTo(1, 2);
    expect(near[2].similarity).toBeCloseTo(0.9 / Math.hypot(0.9, 0.1), 2);
  });

  it('gives equal similarities to the newer message', () => {
    const story = entry([unit(1, 1), unit(1, 1), unit(1, 1)], [10, 30, 20]);
    expect(nearest(story, unit(1, 1), 100, 2).map((n) => n.messageId)).toEqual([30, 20]);
  });
});
