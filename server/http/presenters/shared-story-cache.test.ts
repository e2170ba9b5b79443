// The shared-story cache: one database read per snapshot while it is fresh (however many readers
// arrive at once), nothing kept for unknown ids, expiry on the app's clock, invalidation that a read
// already under way cannot undo, and a bound on the bytes held.
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it, vi } from 'vitest';
import type { SharedStory } from '@shared/schemas/sharing';
import { createSharedStoryCache, publishShare } from './shared-story-cache';

const story = (shareId: string, words = 3): SharedStory => ({
  shareId,
  title: `Story ${shareId}`,
  messages: [{ role: 'assistant', content: 'word '.repeat(words).trim() }],
});

function setup(
  options: {
    maxBytes?: number;
    compress?: boolean;
    keepUpTo?: number;
    stillShared?: (shareId: string) => Promise<boolean>;
  } = {},
) {
  let ms = 0;
  const stories = new Map<string, SharedStory>([
    ['a', story('a')],
    ['b', story('b')],
  ]);
  const load = vi.fn(async (shareId: string) => stories.get(shareId) ?? null);
  const cache = createSharedStoryCache({ load, now: () => new Date(ms), ttlMs: 60_000, ...options });
  return { cache, load, stories, advance: (by: number) => (ms += by) };
}

describe('publishShare', () => {
  it('serialises the public shape once, without unknown fields, with a strong tag of the bytes', async () => {
    const share = await publishShare({ ...story('a'), userId: 7 } as SharedStory);
    expect(JSON.parse(share.body.toString())).toEqual(story('a'));
    expect(share.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect((await publishShare(story('a'))).etag).toBe(share.etag);
    expect((await publishShare(story('b'))).etag).not.toBe(share.etag);
  });

  it('writes a big snapshot a run of messages at a time, byte for byte as JSON.stringify writes it whole', async () => {
    const messages = Array.from({ length: 300 }, (_, i) => ({
      role: i % 2 === 0 ? ('user' as const) : ('assistant' as const),
      content: `Tide ${i}: "the \\ harbour" \u00e9 ${'salt and rope '.repeat(300)}`,
      ...(i % 7 === 0 ? { image: `/images/${i}.webp`, imageAlt: 'A lantern' } : {}),
    }));
    const big = { shareId: 'big', title: 'The Long Harbour', messages };
    const share = await publishShare({
      ...big,
      messages: messages.map((m) => ({ ...m, secret: 'not for readers' })),
    } as SharedStory);
    // 300 messages of ~4 KB: several runs of 256 KB.
    expect(share.body.toString()).toBe(JSON.stringify(big));
    expect(share.story).toEqual(big);
    expect((await publishShare(big)).etag).toBe(share.etag);
  });
});

describe('createSharedStoryCache', () => {
  it('reads a snapshot once, for concurrent and later readers alike', async () => {
    const { cache, load } = setup();
    const [first, second] = await Promise.all([cache.get('a'), cache.get('a')]);
    expect(first).toBe(second);
    expect(await cache.get('a')).toBe(first);
    expect(load).toHaveBeenCalledTimes(1);
    expect(first?.story).toEqual(story('a'));
  });

  it('keeps nothing for an id with no snapshot', async () => {
    const { cache, load } = setup();
    expect(await cache.get('zzz')).toBeNull();
    expect(await cache.get('zzz')).toBeNull();
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('reads again once an entry is older than its time to live (on the app clock)', async () => {
    const { cache, load, advance } = setup();
    await cache.get('a');
    advance(59_999);
    await cache.get('a');
    expect(load).toHaveBeenCalledTimes(1);
    advance(1);
    await cache.get('a');
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('forgets an invalidated share: the next read goes to the source, which no longer has it', async () => {
    const { cache, load, stories } = setup();
    expect(await cache.get('a')).not.toBeNull();
    stories.delete('a');
    cache.invalidate('a');
    expect(await cache.get('a')).toBeNull();
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('does not keep what a read begun before an invalidation brings back', async () => {
    const { cache, load, stories } = setup();
    let release!: () => void;
    load.mockImplementationOnce(async (shareId) => {
      const found = stories.get(shareId) ?? null;
      await new Promise<void>((resolve) => (release = resolve));
      return found;
    });
    const early = cache.get('a');
    await vi.waitFor(() => expect(load).toHaveBeenCalledTimes(1));
    stories.delete('a');
    cache.invalidate('a');
    // A reader after the stop does not join the read that began before it.
    const late = cache.get('a');
    release();
    expect((await early)?.story.shareId).toBe('a');
    expect(await late).toBeNull();
    expect(await cache.get('a')).toBeNull();
    expect(cache.stats().entries).toBe(0);
  });

  it('holds at most its byte bound, dropping the least recently read first, and never keeps a snapshot past a quarter of it', async () => {
    const size = (await publishShare(story('a'))).body.length;
    const { cache, load, stories } = setup({ maxBytes: size * 4 });
    for (const id of ['c', 'd', 'e']) stories.set(id, story(id));
    for (const id of ['a', 'b', 'c', 'd', 'a', 'e']) await cache.get(id);
    expect(cache.stats()).toEqual({ entries: 4, bytes: size * 4 });
    load.mockClear();
    for (const id of ['a', 'c', 'd', 'e', 'b']) await cache.get(id);
    expect(load.mock.calls.map(([id]) => id)).toEqual(['b']);

    stories.set('long', story('long', 100));
    expect((await cache.get('long'))?.story.shareId).toBe('long');
    expect((await cache.get('long'))?.story.shareId).toBe('long');
    expect(load.mock.calls.map(([id]) => id)).toEqual(['b', 'long', 'long']);
    expect(cache.stats().entries).toBe(4);
  });

  it('with compression, keeps brotli and gzip bytes of answers of 1 KB or more, and counts them in its bound', async () => {
    const { cache, stories } = setup({ compress: true });
    stories.set('long', story('long', 400));
    const long = await cache.get('long');
    expect(long!.body.length).toBeGreaterThan(1024);
    expect(brotliDecompressSync(long!.encoded!.br)).toEqual(long!.body);
    expect(gunzipSync(long!.encoded!.gzip)).toEqual(long!.body);
    expect(cache.stats().bytes).toBe(long!.body.length + long!.encoded!.br.length + long!.encoded!.gzip.length);
    expect((await cache.get('a'))!.encoded).toBeUndefined();
    expect((await setup().cache.get('a'))!.encoded).toBeUndefined();
  });

  it('keeps every snapshot up to keepUpTo bytes, however large a share of the bound it is', async () => {
    const { cache, load, stories } = setup({ maxBytes: 4000, keepUpTo: 2000 });
    stories.set('big', story('big', 300));
    stories.set('bigger', story('bigger', 500));
    const big = (await cache.get('big'))!;
    expect(big.body.length).toBeGreaterThan(1000);
    expect(big.body.length).toBeLessThanOrEqual(2000);
    await cache.get('big');
    expect(load.mock.calls.map(([id]) => id)).toEqual(['big']);
    // Past keepUpTo (and past a quarter of the bound) it is served but not kept.
    await cache.get('bigger');
    await cache.get('bigger');
    expect(load.mock.calls.map(([id]) => id)).toEqual(['big', 'bigger', 'bigger']);
  });

  it('renews an expired entry whose share still exists instead of making it again, and drops one that went', async () => {
    const shared = new Set(['a', 'b']);
    const stillShared = vi.fn(async (shareId: string) => shared.has(shareId));
    const { cache, load, stories, advance } = setup({ stillShared });
    const first = await cache.get('a');
    await cache.get('b');
    advance(60_000);
    expect(cache.peek('a')).toBeUndefined();
    // The same bytes, checked rather than read, serialised and compressed again.
    expect(await cache.get('a')).toBe(first);
    expect(stillShared).toHaveBeenCalledTimes(1);
    expect(cache.peek('a')).toBe(first);
    expect(load.mock.calls.map(([id]) => id)).toEqual(['a', 'b']);

    shared.delete('b');
    stories.delete('b');
    advance(60_000);
    expect(await cache.get('b')).toBeNull();
    expect(load.mock.calls.map(([id]) => id)).toEqual(['a', 'b', 'b']);
    expect(cache.stats().entries).toBe(1);
  });
});
