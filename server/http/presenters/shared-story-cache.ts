// Public shared-story answers kept in memory by share id. A snapshot never changes once shared, so
// its JSON is serialised and tagged once and then served (or answered 304) without the database.
// What can change is whether it is still shared: the owner may stop sharing. The instance that
// stops it drops the entry at once; with REDIS_URL every other instance hears about it and drops it
// too (see domains/sharing/sharing.ts); and every entry lives at most `ttlMs` (60 s, the max-age that browsers and
// shared caches may already keep a stopped link for), which bounds a missed message or several
// instances without Redis. An entry past that time is checked (does the share still exist?) rather
// than read, serialised and compressed again: the snapshot cannot have changed. Bounded by the
// bytes it holds, least recently read dropped first; every snapshot up to `keepUpTo` bytes (the
// largest sharing makes) is kept, so a big story is not made again on every read.
// With compression on, each entry also holds its brotli and gzip bytes, made once (off the event
// loop) instead of on every read: most readers are browsers, and they all accept br or gzip.
import { webcrypto } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { COMPRESS_THRESHOLD_BYTES } from '@server/http/plugins/compression';
import { compactObjectWithArray } from '../../kernel/pretty-json';
import { sharedMessageSchema, sharedStorySchema, type SharedMessage, type SharedStory } from '@shared/schemas/sharing';
import type { PublishedShare, PublishedShares } from '@server/domains/sharing/published-shares';

export type { PublishedShare };

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * Answers up to this size are compressed with the strongest settings (brotli 9, gzip 9). Past it the
 * strong settings cost far more than they save: brotli 9 took 10.7 s of a worker thread on a 7.5 MB
 * snapshot of hex text (quality 4: 0.4 s, and as small), which a player could make on purpose; gzip 6
 * took 211 ms of 4.8 MB of prose where gzip 3 took 60 (and brotli 4 60), 18 % larger: both cores of
 * a small server were busy compressing a big snapshot, everyone else waiting for a core.
 */
export const STRONG_COMPRESSION_MAX_BYTES = 64 * 1024;

/** Made once per snapshot, so the stronger settings pay on the small ones: ~0.3 ms of a worker thread for a 10-turn story. */
async function encode(body: Buffer): Promise<{ br: Buffer; gzip: Buffer }> {
  const strong = body.length <= STRONG_COMPRESSION_MAX_BYTES;
  // One after the other: side by side they took both cores of a small server, and the event loop
  // and the embedded database's thread waited for one.
  const br = await brotli(body, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: strong ? 9 : 4,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  });
  const gz = await gzipAsync(body, { level: strong ? 9 : 3 });
  return { br, gzip: gz };
}

const sizeOf = (share: PublishedShare) =>
  share.body.length + (share.encoded ? share.encoded.br.length + share.encoded.gzip.length : 0);

export const SHARED_CACHE_TTL_MS = 60_000;
/**
 * Bytes of answers held (plain and compressed): about 3,000 ten-turn stories. The parsed snapshot kept
 * beside each (for the link-preview page and the pictures' check) takes about as much again. A story
 * past a quarter of the bound is served but not kept.
 */
export const SHARED_CACHE_MAX_BYTES = 32 * 1024 * 1024;

/**
 * The public answer of a snapshot: checked, serialised and tagged. It is checked and serialised a run
 * of messages at a time, with a turn of the event loop between runs (compactObjectWithArray), and
 * its SHA-256 is taken in the thread pool (Web Crypto's digest): made in one go, a 4.9 MB snapshot
 * held the event loop 60-110 ms (the check, the string, its bytes and the garbage they left). The
 * bytes are exactly JSON.stringify of the checked snapshot.
 */
export async function publishShare(story: SharedStory): Promise<PublishedShare> {
  // Checked as the route's response schema would: the bytes are what the API promises, nothing more.
  const head = sharedStoryHeadSchema.parse(story);
  const messages: SharedMessage[] = [];
  function* checked() {
    for (const message of story.messages) {
      const clean = sharedMessageSchema.parse(message);
      messages.push(clean);
      yield JSON.stringify(clean);
    }
  }
  const body = await compactObjectWithArray(head, 'messages', checked());
  const digest = Buffer.from(await webcrypto.subtle.digest('SHA-256', body));
  return { story: { ...head, messages }, etag: `"${digest.toString('base64url').slice(0, 27)}"`, body };
}

/** The snapshot's own fields, in the schema's order, before its messages (which come last). */
const sharedStoryHeadSchema = sharedStorySchema.omit({ messages: true });

interface CacheDeps {
  /** Reads the snapshot from its source (the database); null when there is none. */
  load: (shareId: string) => Promise<SharedStory | null>;
  now: () => Date;
  /** Keep brotli and gzip bytes too (COMPRESSION). */
  compress?: boolean;
  ttlMs?: number;
  maxBytes?: number;
  /** Snapshots whose answer is at most this many bytes are kept whatever their share of the bound. */
  keepUpTo?: number;
  /** Whether a share still exists: an expired entry is renewed on a yes instead of loaded again. Without it, it is loaded again. */
  stillShared?: (shareId: string) => Promise<boolean>;
}

export function createSharedStoryCache({
  load,
  now,
  compress = false,
  ttlMs = SHARED_CACHE_TTL_MS,
  maxBytes = SHARED_CACHE_MAX_BYTES,
  keepUpTo = 0,
  stillShared,
}: CacheDeps): PublishedShares {
  // A Map keeps insertion order: re-inserting on every read makes its first key the least recently read.
  const entries = new Map<string, { share: PublishedShare; expiresAt: number }>();
  /** One database read per share id at a time, however many readers arrive while it runs. */
  const loading = new Map<string, Promise<PublishedShare | null>>();
  let bytes = 0;
  /** Bumped by every invalidation: a read that began before one must not put its answer back. */
  let generation = 0;

  function drop(shareId: string): void {
    const entry = entries.get(shareId);
    if (!entry) return;
    entries.delete(shareId);
    bytes -= sizeOf(entry.share);
  }

  function keep(shareId: string, share: PublishedShare): void {
    const size = sizeOf(share);
    if (size > maxBytes / 4 && share.body.length > keepUpTo) return;
    drop(shareId);
    entries.set(shareId, { share, expiresAt: now().getTime() + ttlMs });
    bytes += size;
    for (const oldest of entries.keys()) {
      if (bytes <= maxBytes || oldest === shareId) break;
      drop(oldest);
    }
  }

  /** The snapshot made again from its source: read, checked, serialised, tagged and compressed. */
  async function made(shareId: string): Promise<PublishedShare | null> {
    const story = await load(shareId);
    if (!story) return null;
    const share = await publishShare(story);
    if (compress && share.body.length >= COMPRESS_THRESHOLD_BYTES) share.encoded = await encode(share.body);
    return share;
  }

  /** An expired entry whose share still exists keeps its bytes; one that went is made again (that is, found missing). */
  async function renewedOrMade(shareId: string, expired: PublishedShare | undefined): Promise<PublishedShare | null> {
    if (expired && stillShared && (await stillShared(shareId))) return expired;
    return made(shareId);
  }

  function fetch(shareId: string): Promise<PublishedShare | null> {
    const running = loading.get(shareId);
    if (running) return running;
    const startedAt = generation;
    const expired = entries.get(shareId)?.share;
    const pending = renewedOrMade(shareId, expired)
      .then((share) => {
        if (!share) {
          if (generation === startedAt) drop(shareId);
          return null;
        }
        if (generation === startedAt) keep(shareId, share);
        return share;
      })
      .finally(() => {
        if (loading.get(shareId) === pending) loading.delete(shareId);
      });
    loading.set(shareId, pending);
    return pending;
  }

  /** The snapshot if it is in memory and fresh (counted as read), else undefined: no promise, no database. */
  function peek(shareId: string): PublishedShare | undefined {
    const entry = entries.get(shareId);
    if (entry && entry.expiresAt > now().getTime()) {
      entries.delete(shareId);
      entries.set(shareId, entry);
      return entry.share;
    }
    // An expired entry stays until fetch has checked it (renewed) or made it again; without a check it goes.
    if (!stillShared) drop(shareId);
    return undefined;
  }

  return {
    /** The published snapshot, from memory when it is there and fresh; null when there is none. */
    get(shareId: string): Promise<PublishedShare | null> {
      const share = peek(shareId);
      return share ? Promise.resolve(share) : fetch(shareId);
    },

    peek,

    /** Forgets a share (it was stopped): the next read goes to the database. */
    invalidate(shareId: string): void {
      generation += 1;
      drop(shareId);
      // A reader arriving from now on must not join a read that may predate the stop.
      loading.delete(shareId);
    },

    stats: () => ({ entries: entries.size, bytes }),
  };
}
export type SharedStoryCache = ReturnType<typeof createSharedStoryCache>;

/** The shared-story cache's bound: its default, or room for four of the largest snapshots with their compressed copies. */
export const sharedCacheBytes = (shareMaxBytes: number) => Math.max(SHARED_CACHE_MAX_BYTES, 8 * shareMaxBytes);
