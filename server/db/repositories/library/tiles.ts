// The owner's library as tiles: one page of their stories, newest played first, optionally found by
// title (or by premise, before a title is made), with each story's turn count and first picture;
// and renaming a tile's story. Scoped by the owner; a story being imported or deleted is not listed.
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../client';
import { stories } from '../../schema';
import { likePattern, MAX_ID, rows } from '../sql-values';

export interface LibraryRow {
  id: number;
  title: string | null;
  premise: string;
  turns: number;
  createdAt: Date;
  lastPlayedAt: Date;
  /** The story's first ready picture (in message order), null when none. */
  assetHash: string | null;
}

/** A story without a title yet is found by its premise (its title is made from it). */
const matches = (userId: number, query: string | undefined): SQL =>
  query
    ? sql`s.user_id = ${userId} and not s.importing and coalesce(s.title, s.premise) ilike ${likePattern(query)}`
    : sql`s.user_id = ${userId} and not s.importing`;

export function libraryTiles(db: Db) {
  return {
    async page(input: {
      userId: number;
      query?: string;
      limit: number;
      offset: number;
    }): Promise<{ rows: LibraryRow[]; total: number }> {
      const where = matches(input.userId, input.query);
      // The turn count is the last message's turn, read through the (story_id, id) index; the
      // picture through (story_id, message_id): two index probes per listed story.
      const tiles = await rows<{
        id: number;
        title: string | null;
        premise: string;
        turns: number;
        created_at: string;
        updated_at: string;
        asset_hash: string | null;
      }>(
        db,
        sql`
        select s.id, s.title, s.premise, to_json(s.created_at) #>> '{}' as created_at, to_json(s.updated_at) #>> '{}' as updated_at,
          coalesce((select m.turn from story_messages m where m.story_id = s.id and m.state = 'shown' order by m.id desc limit 1), 0) as turns,
          (select i.asset_hash from scene_images i join story_messages m on m.id = i.message_id and m.version = i.version and m.state = 'shown'
             where i.story_id = s.id and i.status = 'ready' and i.asset_hash is not null
             order by i.message_id limit 1) as asset_hash
        from stories s
        where ${where}
        order by s.updated_at desc, s.id desc
        limit ${input.limit} offset ${input.offset}`,
      );
      const [{ total }] = await rows<{ total: number }>(
        db,
        sql`select count(*)::int as total from stories s where ${where}`,
      );
      return {
        total,
        rows: tiles.map((r) => ({
          id: r.id,
          title: r.title,
          premise: r.premise,
          turns: r.turns,
          createdAt: new Date(r.created_at),
          lastPlayedAt: new Date(r.updated_at),
          assetHash: r.asset_hash,
        })),
      };
    },

    /** False when the story is not the owner's. */
    async rename(storyId: number, userId: number, title: string): Promise<boolean> {
      if (storyId > MAX_ID) return false;
      const renamed = await db
        .update(stories)
        .set({ title })
        .where(and(eq(stories.id, storyId), eq(stories.userId, userId)))
        .returning({ id: stories.id });
      return renamed.length > 0;
    },
  };
}
