// Shared story snapshots. Creating and deleting are owner-scoped; reading by share id is public on
// purpose (the id is the capability), and returns only what the public page shows.
import { and, eq } from 'drizzle-orm';
import type { Db } from '../client';
import { sharedStories } from '../schema';
import { assertWithinQuotas, type QuotaCheck } from './quotas';

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
    /** Throws QuotaExceeded (keeping nothing) when the new link takes the owner past `quotas`. */
    async create(input: { id: string; userId: number; storyId: number; title: string; messages: SharedMessageRecord[]; now: Date; quotas: QuotaCheck }): Promise<void> {
      const { quotas, now, ...share } = input;
      await db.transaction(async (tx) => {
        await tx.insert(sharedStories).values({ ...share, createdAt: now });
        await assertWithinQuotas(tx, input.userId, quotas);
      });
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
