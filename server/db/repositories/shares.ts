// Shared story snapshots. Creating and deleting are owner-scoped; reading by share id is public on
// purpose (the id is the capability), and returns only what the public page shows.
import { and, eq } from 'drizzle-orm';
import type { Db } from '../client';
import { sharedStories } from '../schema';

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

export function createSharesRepository(db: Db) {
  return {
    async create(input: { id: string; userId: number; storyId: number; title: string; messages: SharedMessageRecord[]; now: Date }): Promise<void> {
      await db.insert(sharedStories).values({ ...input, createdAt: input.now });
    },

    async find(id: string): Promise<ShareRecord | null> {
      const [row] = await db
        .select({ id: sharedStories.id, title: sharedStories.title, messages: sharedStories.messages, createdAt: sharedStories.createdAt })
        .from(sharedStories)
        .where(eq(sharedStories.id, id));
      return row ?? null;
    },

    /** False when the share does not exist or is not this user's. */
    async deleteOwned(id: string, userId: number): Promise<boolean> {
      const rows = await db
        .delete(sharedStories)
        .where(and(eq(sharedStories.id, id), eq(sharedStories.userId, userId)))
        .returning({ id: sharedStories.id });
      return rows.length > 0;
    },
  };
}
export type SharesRepository = ReturnType<typeof createSharesRepository>;
