// What a player's data download lists beside their stories' contents: every story of theirs and
// every share they made. Scoped by the player; a story being imported or deleted, or a share still
// being written, is not theirs to download yet.
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../client';
import { stories } from '../../schema';
import { rows } from '../sql-values';

export function dataDownload(db: Db) {
  return {
    /** Every story id of a player, oldest first (their data download). */
    async storyIds(userId: number): Promise<number[]> {
      const found = await db
        .select({ id: stories.id })
        .from(stories)
        .where(and(eq(stories.userId, userId), eq(stories.importing, false)))
        .orderBy(stories.id);
      return found.map((r) => r.id);
    },

    /** A player's shares: id, title, the story and when (their data download). */
    async sharesOf(
      userId: number,
    ): Promise<Array<{ shareId: string; storyId: number; title: string; createdAt: string }>> {
      const shares = await rows<{ id: string; story_id: number; title: string; created_at: string }>(
        db,
        sql`select id, story_id, title, to_json(created_at) #>> '{}' as created_at from shared_stories where user_id = ${userId} and not writing order by created_at`,
      );
      return shares.map((r) => ({ shareId: r.id, storyId: r.story_id, title: r.title, createdAt: r.created_at }));
    },
  };
}
