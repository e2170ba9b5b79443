// Sharing: the owner shares a snapshot of a story's turns under an
// unguessable id; anyone with the id reads it; the owner can stop sharing. Sharing again makes a new
// link with the newer turns. The public answer carries the title and the turns, nothing about the
// account. The id "test" is the built-in sample story. Published snapshots are served from memory
// (published-shares.ts, kept by http/presenters/shared-story-cache.ts); stopping a share drops it there, and with REDIS_URL on every instance.
import { randomBytes } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Repositories } from '@server/db/repositories';
import type { StoredAsset } from '@server/db/repositories/images';
import { DomainError } from '@server/kernel/errors';
import { SAMPLE_STORY } from '@shared/sample-story';
import { ERROR_CODES } from '@shared/schemas/common';
import {
  isWellFormedShareId,
  SAMPLE_SHARE_ID,
  shareTooLargeMessage,
  SHARING_MESSAGES,
  type SharedStory,
} from '@shared/schemas/sharing';
import type { Broadcast } from '@server/kernel/broadcast';
import type { ImageService } from '../images';
import { altFromScene } from '../images/scene-prompt';
import { refusedOverQuota, type QuotaService } from '../limits/quotas';
import { notFound as storyNotFound } from '../story/errors';
import { createOneAtATime } from '../../kernel/one-at-a-time';
import { SERIALISED_PER_TURN } from '../../kernel/pretty-json';
import type { PublishedShare, PublishShares } from './published-shares';

/** 12 random bytes: 16 URL-safe characters, 96 bits, far beyond guessing. */
const SHARE_ID_BYTES = 12;

export const shareNotFound = () => new DomainError('notFound', ERROR_CODES.notFound, SHARING_MESSAGES.notFound);

/** A shared picture's address: readable by anyone holding the link, for as long as the link lives. */
export const sharedImageUrl = (shareId: string, hash: string, thumbnail = false) =>
  `/api/shared/${shareId}/images/${hash}${thumbnail ? '.thumb' : ''}.webp`;

/**
 * Bytes of shared pictures kept in memory. A picture's address is its content's hash, so a kept copy
 * is never stale; whether a share still shows it is checked on every read (against its snapshot). A
 * gallery's readers, or a burst of them, then read pictures without queueing on the database.
 */
export const SHARED_PICTURES_CACHE_BYTES = 16 * 1024 * 1024;

/** Pictures by hash, least recently read dropped first past `maxBytes`; one database read per hash at a time. */
export function createPictureCache(
  load: (hash: string) => Promise<StoredAsset | null>,
  maxBytes = SHARED_PICTURES_CACHE_BYTES,
) {
  const kept = new Map<string, StoredAsset>();
  const loading = new Map<string, Promise<StoredAsset | null>>();
  let bytes = 0;
  const sizeOf = (asset: StoredAsset) => asset.webp.length + asset.thumbnail.length;
  function keep(asset: StoredAsset): void {
    if (kept.has(asset.hash) || sizeOf(asset) > maxBytes / 4) return;
    kept.set(asset.hash, asset);
    bytes += sizeOf(asset);
    for (const [hash, oldest] of kept) {
      if (bytes <= maxBytes) break;
      kept.delete(hash);
      bytes -= sizeOf(oldest);
    }
  }
  return {
    get(hash: string): Promise<StoredAsset | null> {
      const asset = kept.get(hash);
      if (asset) {
        kept.delete(hash);
        kept.set(hash, asset);
        return Promise.resolve(asset);
      }
      const running = loading.get(hash);
      if (running) return running;
      const pending = load(hash)
        .then((found) => {
          if (found) keep(found);
          return found;
        })
        .finally(() => loading.delete(hash));
      loading.set(hash, pending);
      return pending;
    },
    stats: () => ({ entries: kept.size, bytes }),
  };
}

/** The Broadcast name on which instances hear of stopped shares (the message is the share id). */
export const SHARES_STOPPED = 'share-stopped';

interface SharingDeps {
  repos: Repositories;
  images: Pick<ImageService, 'enabled'>;
  now: () => Date;
  /** The largest snapshot, in bytes of its public JSON (SHARE_MAX_BYTES). */
  shareMaxBytes: number;
  /** Keeps the published snapshots' answers (made over the source sharing gives it). */
  publishShares: PublishShares;
  /** Null with one instance (or several without Redis: cached snapshots then expire within a minute). */
  revocations?: Broadcast | null;
  /** A link counts one share and its snapshot's bytes. */
  quotas: Pick<QuotaService, 'limits' | 'assertRoom'>;
}

export function createSharingService({
  repos,
  images,
  now,
  shareMaxBytes,
  publishShares,
  revocations = null,
  quotas,
}: SharingDeps) {
  const pictures = createPictureCache((hash) => repos.images.asset(hash));
  /** Each player's shares are written one after another (see kernel/one-at-a-time.ts). */
  const oneAtATime = createOneAtATime();
  const cache = publishShares({
    stillShared: (shareId) => repos.shares.exists(shareId),
    async load(shareId) {
      if (shareId === SAMPLE_SHARE_ID) return SAMPLE_STORY;
      if (!isWellFormedShareId(shareId)) return null;
      const record = await repos.shares.find(shareId);
      return record ? { shareId: record.id, title: record.title, messages: record.messages } : null;
    },
  });

  /** Shares that are gone (stopped, or deleted with their story): dropped here and on every instance. */
  async function forget(shareIds: string[]): Promise<void> {
    for (const shareId of shareIds) {
      cache.invalidate(shareId);
      // If Redis is unreachable the others still drop it when their entry expires (within a minute).
      await revocations?.announce(shareId);
    }
  }

  async function find(shareId: string): Promise<SharedStory | null> {
    return (await cache.get(shareId))?.story ?? null;
  }

  return {
    async share(userId: number, storyId: number, title: string): Promise<{ shareId: string }> {
      if (!(await repos.stories.findOwned(storyId, userId))) throw storyNotFound();
      // A full account is refused before the snapshot is made; the write checks again, exactly.
      await quotas.assertRoom(userId, { share: true, bytes: 0 });
      const shareId = randomBytes(SHARE_ID_BYTES).toString('base64url');
      // The story at one moment (as an export reads it), its shown texts only, read no further than
      // the limit: a story far past it is refused without being loaded.
      const snapshot = await repos.storyFiles.snapshot(storyId, userId, images.enabled, {
        maxTextBytes: shareMaxBytes,
        versions: false,
      });
      if (!snapshot) throw storyNotFound();
      const tooLarge = () => new DomainError('limited', ERROR_CODES.tooLarge, shareTooLargeMessage(shareMaxBytes));
      if (!snapshot.complete) throw tooLarge();
      // The snapshot keeps the pictures it was shared with: their content hashes never change.
      const messages = snapshot.messages.map(({ role, content, picture }) =>
        picture && role === 'assistant'
          ? {
              role,
              content,
              image: sharedImageUrl(shareId, picture.hash),
              thumbnail: sharedImageUrl(shareId, picture.hash, true),
              imageAlt: altFromScene(picture.scene),
            }
          : { role, content },
      );
      // The limit is on the answer readers get (texts, escapes, picture addresses): what the cache holds.
      // Each message is serialised once: the same texts are what the database stores. A turn of the
      // event loop every few hundred KB: 5 MB in one go held it 40-50 ms.
      const messageJsons: string[] = [];
      let answerBytes = Buffer.byteLength(JSON.stringify({ shareId, title, messages: [] }));
      let runChars = 0;
      for (const message of messages) {
        const json = JSON.stringify(message);
        messageJsons.push(json);
        answerBytes += Buffer.byteLength(json) + 1;
        runChars += json.length;
        if (runChars >= SERIALISED_PER_TURN) {
          runChars = 0;
          await nextTurn();
        }
      }
      if (answerBytes > shareMaxBytes) throw tooLarge();
      const pictureHashes = snapshot.messages.flatMap((m) =>
        m.picture && m.role === 'assistant' ? [m.picture.hash] : [],
      );
      const { maxShares, maxStoredBytes } = quotas.limits;
      await oneAtATime(userId, () =>
        refusedOverQuota(quotas.limits, () =>
          repos.shares.create({
            id: shareId,
            userId,
            storyId,
            title,
            messageJsons,
            pictureHashes,
            now: now(),
            quotas: { maxShares, maxStoredBytes },
          }),
        ),
      );
      return { shareId };
    },

    /** The shared story, or null when there is none under this id (or the id cannot be one). */
    find,

    /** The public answer, serialised and tagged (usually from memory); 404 when there is none. */
    async published(shareId: string): Promise<PublishedShare> {
      const share = await cache.get(shareId);
      if (!share) throw shareNotFound();
      return share;
    },

    /** The public answer when it is in memory already (the usual case for a read), else undefined. */
    publishedNow: (shareId: string): PublishedShare | undefined => cache.peek(shareId),

    /** Hears other instances' stopped shares (with REDIS_URL); call once at start-up. */
    async start(): Promise<void> {
      await revocations?.listen((shareId) => cache.invalidate(shareId));
    },

    /** A picture of a shared snapshot: its bytes if the snapshot shows it, else null. */
    async sharedAsset(shareId: string, hash: string): Promise<StoredAsset | null> {
      if (!images.enabled || shareId === SAMPLE_SHARE_ID) return null;
      const story = await find(shareId);
      if (!story?.messages.some((m) => m.image === sharedImageUrl(shareId, hash))) return null;
      return pictures.get(hash);
    },

    async stop(userId: number, shareId: string): Promise<void> {
      if (!isWellFormedShareId(shareId) || !(await repos.shares.deleteOwned(shareId, userId))) throw shareNotFound();
      await forget([shareId]);
    },

    forget,

    /** Entries and bytes held in memory (for tests and benchmarks). */
    cacheStats: () => cache.stats(),
  };
}
export type SharingService = ReturnType<typeof createSharingService>;
