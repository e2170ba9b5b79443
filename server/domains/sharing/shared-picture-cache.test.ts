// The shared pictures kept in memory: read once from the database per picture however many readers
// ask at once, served from memory after, least recently read dropped first past the byte bound, and
// a picture too big for a quarter of it never kept.
import { describe, expect, it } from 'vitest';
import type { StoredAsset } from '@server/db/repositories/images';
import { createPictureCache } from './sharing';

const picture = (hash: string, bytes: number): StoredAsset => ({
  hash,
  webp: Buffer.alloc(bytes),
  thumbnail: Buffer.alloc(0),
  width: 16,
  height: 9,
});

describe('createPictureCache', () => {
  it('reads a picture once for a burst of readers and keeps it for the next ones', async () => {
    const loads: string[] = [];
    const cache = createPictureCache(async (hash) => (loads.push(hash), picture(hash, 100)), 10_000);
    const burst = await Promise.all(Array.from({ length: 50 }, () => cache.get('a')));
    expect(new Set(burst).size).toBe(1);
    expect(await cache.get('a')).toBe(burst[0]);
    expect(loads).toEqual(['a']);
  });

  it('drops the least recently read past its bound, never keeps one over a quarter of it, and asks again for what it dropped', async () => {
    const loads: string[] = [];
    const cache = createPictureCache(
      async (hash) => (loads.push(hash), picture(hash, hash === 'huge' ? 300 : 200)),
      1000,
    );
    for (const hash of ['a', 'b', 'c', 'd', 'e']) await cache.get(hash);
    await cache.get('a');
    await cache.get('f');
    expect(cache.stats()).toEqual({ entries: 5, bytes: 1000 });
    await cache.get('a');
    await cache.get('b');
    await cache.get('huge');
    await cache.get('huge');
    expect(loads).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'b', 'huge', 'huge']);
  });

  it('keeps nothing for a picture that is not there', async () => {
    let loads = 0;
    const cache = createPictureCache(async () => ((loads += 1), null));
    expect(await cache.get('x')).toBeNull();
    expect(await cache.get('x')).toBeNull();
    expect([loads, cache.stats().entries]).toEqual([2, 0]);
  });
});
