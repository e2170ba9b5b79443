// Bookmarks, always scoped by their owner: another user's bookmark reads as missing. A bookmark's
// message may have been replaced by a retry (the reply gets a new id), so reads resolve
// lastMessageId to the nearest message of the story at or before it.
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { bookmarks, storyMessages } from '../schema';
import { MAX_ID } from './sql-values';

export interface BookmarkRecord {
  id: number;
  storyId: number;
  lastMessageId: number;
  title: string;
  description: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** The stored message if the story still shows it, else the closest earlier one shown (undo and erase set turns aside), else the stored id as is. */
const resolvedLastMessageId = sql<number>`coalesce((
  select max(${storyMessages.id}) from ${storyMessages}
  where ${storyMessages.storyId} = ${bookmarks.storyId} and ${storyMessages.id} <= ${bookmarks.lastMessageId} and ${storyMessages.state} = 'shown'
), ${bookmarks.lastMessageId})`.mapWith(Number);

const columns = {
  id: bookmarks.id,
  storyId: bookmarks.storyId,
  lastMessageId: resolvedLastMessageId,
  title: bookmarks.title,
  description: bookmarks.description,
  createdAt: bookmarks.createdAt,
  updatedAt: bookmarks.updatedAt,
};

export function createBookmarksRepository(db: Db) {
  async function findOwned(id: number, userId: number): Promise<BookmarkRecord | null> {
    if (id > MAX_ID) return null;
    const [row] = await db
      .select(columns)
      .from(bookmarks)
      .where(and(eq(bookmarks.id, id), eq(bookmarks.userId, userId)));
    return row ?? null;
  }

  return {
    /** Newest first; ties (same instant) by id so the order is stable. */
    async listForUser(userId: number): Promise<BookmarkRecord[]> {
      return db
        .select(columns)
        .from(bookmarks)
        .where(eq(bookmarks.userId, userId))
        .orderBy(desc(bookmarks.createdAt), desc(bookmarks.id));
    },

    findOwned,

    async create(input: {
      userId: number;
      storyId: number;
      lastMessageId: number;
      title: string;
      description: string | null;
      now: Date;
    }): Promise<BookmarkRecord> {
      const [row] = await db
        .insert(bookmarks)
        .values({ ...input, createdAt: input.now, updatedAt: input.now })
        .returning({ id: bookmarks.id });
      const created = await findOwned(row.id, input.userId);
      if (!created) throw new Error('bookmark vanished right after insert');
      return created;
    },

    /** Changes only the fields given; null when the bookmark is not this user's. */
    async update(
      id: number,
      userId: number,
      changes: { title?: string; description?: string | null; now: Date },
    ): Promise<BookmarkRecord | null> {
      if (id > MAX_ID) return null;
      const { now, ...fields } = changes;
      const rows = await db
        .update(bookmarks)
        .set({ ...fields, updatedAt: now })
        .where(and(eq(bookmarks.id, id), eq(bookmarks.userId, userId)))
        .returning({ id: bookmarks.id });
      return rows.length > 0 ? findOwned(id, userId) : null;
    },

    async delete(id: number, userId: number): Promise<boolean> {
      if (id > MAX_ID) return false;
      const rows = await db
        .delete(bookmarks)
        .where(and(eq(bookmarks.id, id), eq(bookmarks.userId, userId)))
        .returning({ id: bookmarks.id });
      return rows.length > 0;
    },
  };
}
export type BookmarksRepository = ReturnType<typeof createBookmarksRepository>;
