// Shared story snapshots. Creating and deleting are owner-scoped; reading by share id is public on
// purpose (the id is the capability), and returns only what the public page shows. A snapshot's
// messages are stored as runs of JSON text (shared_story_pieces, migration 0015), written and read
// a piece per statement: a 5 MB snapshot as one value held the embedded database's one session for
// a fifth of a second each way, every other request waiting.
import { and, eq, lt, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { sharedStories, sharedStoryPieces, sharedStoryPictures } from '../schema';
import { assertWithinQuotas, type QuotaCheck } from './quotas';
import { PIECE_BYTES, rows } from './sql-values';

export interface SharedMessageRecord {
  role: 'user' | 'assistant';
  content: string;
  image?: string;
  thumbnail?: string;
  imageAlt?: string;
}

export interface ShareRecord {
  id: string;
  title: string;
  messages: SharedMessageRecord[];
  createdAt: Date;
}

/**
 * Consecutive messages (each as its JSON text) grouped into JSON arrays of at most PIECE_BYTES, or
 * one message where it alone is more; each made when it is asked for, so that writing a piece and
 * making the next take turns with other requests.
 */
export function* piecesOf(messageJsons: string[]): Generator<string> {
  let run: string[] = [];
  let bytes = 2;
  let made = 0;
  for (const json of messageJsons) {
    const size = Buffer.byteLength(json) + 1;
    if (run.length > 0 && bytes + size > PIECE_BYTES) {
      yield `[${run.join(',')}]`;
      made += 1;
      run = [];
      bytes = 2;
    }
    run.push(json);
    bytes += size;
  }
  if (run.length > 0 || made === 0) yield `[${run.join(',')}]`;
}

export function createSharesRepository(db: Db) {
  return {
    /**
     * Writes a share: its row first, hidden (`writing`), then its messages a piece per transaction,
     * then one transaction that shows it and checks the owner's quotas. Throws QuotaExceeded when
     * the link takes the owner past `quotas`; then, or on any failure, the share is deleted. One
     * left by a process that died goes at the next start or after an hour (deleteAbandoned).
     * `messageJsons`: each message (SharedMessageRecord) as JSON text, stored as it is.
     */
    async create(input: {
      id: string;
      userId: number;
      storyId: number;
      title: string;
      messageJsons: string[];
      pictureHashes: string[];
      now: Date;
      quotas: QuotaCheck;
    }): Promise<void> {
      const { id, userId, storyId, title, now } = input;
      await db.transaction(async (tx) => {
        await tx.insert(sharedStories).values({ id, userId, storyId, title, writing: true, createdAt: now });
        // One link too many is known before its text is written.
        await assertWithinQuotas(tx, userId, { maxShares: input.quotas.maxShares });
      });
      try {
        let pieces = 0;
        for (const messages of piecesOf(input.messageJsons))
          await db.insert(sharedStoryPieces).values({ shareId: id, userId, piece: pieces++, messages });
        await db.transaction(async (tx) => {
          const hashes = [...new Set(input.pictureHashes)];
          if (hashes.length > 0)
            await tx.insert(sharedStoryPictures).values(hashes.map((assetHash) => ({ shareId: id, assetHash })));
          await tx.update(sharedStories).set({ pieces, writing: false }).where(eq(sharedStories.id, id));
          await assertWithinQuotas(tx, userId, input.quotas);
        });
      } catch (error) {
        await db.delete(sharedStories).where(eq(sharedStories.id, id));
        throw error;
      }
    },

    /** The share's title and messages, a piece per statement; null when there is none (or it went meanwhile). */
    async find(id: string): Promise<ShareRecord | null> {
      const [share] = await db
        .select({
          id: sharedStories.id,
          title: sharedStories.title,
          pieces: sharedStories.pieces,
          createdAt: sharedStories.createdAt,
        })
        .from(sharedStories)
        .where(and(eq(sharedStories.id, id), eq(sharedStories.writing, false)));
      if (!share) return null;
      const messages: SharedMessageRecord[] = [];
      for (let piece = 0; piece < share.pieces; piece += 1) {
        const [found] = await rows<{ messages: string }>(
          db,
          sql`select messages from shared_story_pieces where share_id = ${id} and piece = ${piece}`,
        );
        if (!found) return null;
        messages.push(...(JSON.parse(found.messages) as SharedMessageRecord[]));
      }
      return { id: share.id, title: share.title, messages, createdAt: share.createdAt };
    },

    /** Whether the share still exists (a cached copy past its time to live is checked, not read again). */
    async exists(id: string): Promise<boolean> {
      const [row] = await db
        .select({ id: sharedStories.id })
        .from(sharedStories)
        .where(and(eq(sharedStories.id, id), eq(sharedStories.writing, false)));
      return Boolean(row);
    },

    /** False when the share does not exist or is not this user's. */
    async deleteOwned(id: string, userId: number): Promise<boolean> {
      const rows = await db
        .delete(sharedStories)
        .where(and(eq(sharedStories.id, id), eq(sharedStories.userId, userId)))
        .returning({ id: sharedStories.id });
      return rows.length > 0;
    },

    /** Deletes shares whose writing never finished (its process died): all of them at start-up on the embedded database, else those begun before `before`. */
    async deleteAbandoned(before?: Date): Promise<number> {
      const gone = await db
        .delete(sharedStories)
        .where(and(eq(sharedStories.writing, true), before ? lt(sharedStories.createdAt, before) : undefined))
        .returning({ id: sharedStories.id });
      return gone.length;
    },
  };
}
export type SharesRepository = ReturnType<typeof createSharesRepository>;
