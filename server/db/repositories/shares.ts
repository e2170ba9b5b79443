// Shared story snapshots. Creating and deleting are owner-scoped; reading by share id is public on
// purpose (the id is the capability), and returns only what the public page shows.
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { sharedStories } from '../schema';
import { assertWithinQuotas, type QuotaCheck } from './quotas';
import { rows } from './sql-values';

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
    /** `messagesJson`: the snapshot's messages (SharedMessageRecord[]) as JSON text, stored as it is. */
    async create(input: { id: string; userId: number; storyId: number; title: string; messagesJson: string; now: Date; quotas: QuotaCheck }): Promise<void> {
      const { quotas, now, messagesJson, ...share } = input;
      await db.transaction(async (tx) => {
        await tx.insert(sharedStories).values({ ...share, messages: sql`${messagesJson}::jsonb`, createdAt: now });
        await assertWithinQuotas(tx, input.userId, quotas);
      });
    },

    /**
     * The story's shown messages for a snapshot, in order, as long as their texts stay within
     * `maxBytes` (UTF-8): the first message past it is the last one read, and `complete` says
     * whether that was all of them. One statement: the database adds up the sizes, so a story far
     * past the bound costs this process one bound's worth of rows, not the story.
     */
    async messagesWithin(storyId: number, maxBytes: number): Promise<{ messages: Array<{ id: number; role: 'user' | 'assistant'; content: string }>; complete: boolean }> {
      const found = await rows<{ id: number; role: 'user' | 'assistant'; content: string; total: number }>(
        db,
        sql`select id, role, content, total::int as total from (
              select id, role, content, octet_length(content) as size,
                sum(octet_length(content)) over (order by id) as upto, count(*) over () as total
              from story_messages where story_id = ${storyId} and state = 'shown'
            ) m
            where upto - size <= ${maxBytes}
            order by id`,
      );
      return { messages: found.map(({ id, role, content }) => ({ id, role, content })), complete: found.length === (found[0]?.total ?? 0) };
    },

    async find(id: string): Promise<ShareRecord | null> {
      const [row] = await db
        .select({ id: sharedStories.id, title: sharedStories.title, messages: sharedStories.messages, createdAt: sharedStories.createdAt })
        .from(sharedStories)
        .where(eq(sharedStories.id, id));
      return row ?? null;
    },

    /** Whether the share still exists (a cached copy past its time to live is checked, not read again). */
    async exists(id: string): Promise<boolean> {
      const [row] = await db.select({ id: sharedStories.id }).from(sharedStories).where(eq(sharedStories.id, id));
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
  };
}
export type SharesRepository = ReturnType<typeof createSharesRepository>;
