// The owner's story library: one page of their stories (newest played first, optionally filtered
// by title), renaming, and deleting a story with everything that hangs off it. Every statement is
// scoped by the owner.
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../client';
import { stories } from '../schema';
import { likePattern, MAX_ID } from './sql-values';
import { removeHiddenStory } from './pieces';

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

export function createLibraryRepository(db: Db) {
  /** A raw statement's rows (both backends answer node-postgres results; Drizzle types them loosely). */
  const run = async <Row>(query: SQL) =>
    (await db.execute(query)) as unknown as { rows: Row[]; rowCount: number | null };

  /** A story without a title yet is found by its premise (its title is made from it). */
  const matches = (userId: number, query: string | undefined): SQL =>
    query
      ? sql`s.user_id = ${userId} and not s.importing and coalesce(s.title, s.premise) ilike ${likePattern(query)}`
      : sql`s.user_id = ${userId} and not s.importing`;

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
      const rows = await run<{
        id: number;
        title: string | null;
        premise: string;
        turns: number;
        created_at: string;
        updated_at: string;
        asset_hash: string | null;
      }>(sql`
        select s.id, s.title, s.premise, to_json(s.created_at) #>> '{}' as created_at, to_json(s.updated_at) #>> '{}' as updated_at,
          coalesce((select m.turn from story_messages m where m.story_id = s.id and m.state = 'shown' order by m.id desc limit 1), 0) as turns,
          (select i.asset_hash from scene_images i join story_messages m on m.id = i.message_id and m.version = i.version and m.state = 'shown'
             where i.story_id = s.id and i.status = 'ready' and i.asset_hash is not null
             order by i.message_id limit 1) as asset_hash
        from stories s
        where ${where}
        order by s.updated_at desc, s.id desc
        limit ${input.limit} offset ${input.offset}`);
      const [{ total }] = (
        await run<{ total: number }>(sql`select count(*)::int as total from stories s where ${where}`)
      ).rows;
      return {
        total,
        rows: rows.rows.map((r) => ({
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

    /** Every story id of a player, oldest first (their data download). */
    async storyIds(userId: number): Promise<number[]> {
      const rows = await db
        .select({ id: stories.id })
        .from(stories)
        .where(and(eq(stories.userId, userId), eq(stories.importing, false)))
        .orderBy(stories.id);
      return rows.map((r) => r.id);
    },

    /** A player's shares: id, title, the story and when (their data download). */
    async sharesOf(
      userId: number,
    ): Promise<Array<{ shareId: string; storyId: number; title: string; createdAt: string }>> {
      const result = await run<{ id: string; story_id: number; title: string; created_at: string }>(
        sql`select id, story_id, title, to_json(created_at) #>> '{}' as created_at from shared_stories where user_id = ${userId} and not writing order by created_at`,
      );
      return result.rows.map((r) => ({ shareId: r.id, storyId: r.story_id, title: r.title, createdAt: r.created_at }));
    },

    /** False when the story is not the owner's. */
    async rename(storyId: number, userId: number, title: string): Promise<boolean> {
      if (storyId > MAX_ID) return false;
      const rows = await db
        .update(stories)
        .set({ title })
        .where(and(eq(stories.id, storyId), eq(stories.userId, userId)))
        .returning({ id: stories.id });
      return rows.length > 0;
    },

    /**
     * Deletes the owner's story unless a reply is being written. One statement takes it from them:
     * it is hidden (`importing`, so no read, turn or change finds it), and its shares and bookmarks
     * go; then its rows are deleted in pieces (pieces.ts). Stored pictures nothing else shows
     * any more are removed by the caller. Usage rows stay for the totals, without the story. Answers
     * the ids of the shares that went (their cached copies must be dropped), or 'busy' / 'missing'.
     */
    async remove(
      storyId: number,
      userId: number,
      now: Date,
    ): Promise<{ shareIds: string[]; assetHashes: string[] } | 'busy' | 'missing'> {
      if (storyId > MAX_ID) return 'missing';
      const result = await run<{
        found: boolean;
        busy: boolean;
        share_ids: string[] | null;
        hashes: string[] | null;
      }>(sql`
        with target as (
          select id, (generating_until is not null and generating_until > ${now.toISOString()}::timestamptz) as busy
          from stories where id = ${storyId} and user_id = ${userId} and not importing
        ), hidden as (
          update stories s set importing = true, updated_at = ${now.toISOString()}::timestamptz from target where s.id = target.id and not target.busy returning s.id
        ), hashes as (
          select distinct i.asset_hash as hash from scene_images i, hidden where i.story_id = hidden.id and i.asset_hash is not null
        ), shares as (
          delete from shared_stories sh using hidden where sh.story_id = hidden.id returning sh.id
        ), bookmarks_gone as (
          delete from bookmarks b using hidden where b.story_id = hidden.id
        )
        select exists (select 1 from target) as found,
          coalesce((select busy from target), false) as busy,
          (select array_agg(id) from shares) as share_ids,
          (select array_agg(hash) from hashes) as hashes`);
      const row = result.rows[0];
      if (!row.found) return 'missing';
      if (row.busy) return 'busy';
      await removeHiddenStory(db, storyId);
      return { shareIds: row.share_ids ?? [], assetHashes: row.hashes ?? [] };
    },

    /**
     * Deletes a player's account and everything of theirs: first every story is hidden and its
     * shares go (one statement), then each story's rows go in pieces, then the player's row takes the
     * rest through the foreign keys (sessions, preferences, bookmarks, pictures). Usage rows stay with
     * no player (the operator's totals). Answers what the caller must still clean up: the shares to
     * drop from caches and the pictures to remove once nothing shows them.
     */
    async removeAccount(userId: number): Promise<{ shareIds: string[]; assetHashes: string[] }> {
      const result = await run<{ share_ids: string[] | null; hashes: string[] | null; story_ids: number[] | null }>(sql`
        with hidden as (update stories set importing = true where user_id = ${userId} returning id),
        shares as (delete from shared_stories where user_id = ${userId} returning id),
        hashes as (select distinct asset_hash as hash from scene_images where user_id = ${userId} and asset_hash is not null)
        select (select array_agg(id) from shares) as share_ids, (select array_agg(hash) from hashes) as hashes, (select array_agg(id) from hidden) as story_ids`);
      const row = result.rows[0];
      for (const storyId of row.story_ids ?? []) await removeHiddenStory(db, storyId);
      await run(sql`delete from users where id = ${userId}`);
      return { shareIds: row.share_ids ?? [], assetHashes: row.hashes ?? [] };
    },

    /**
     * Removes stored pictures that no scene picture and no shared snapshot shows any more (after a
     * story went). A separate statement: the delete above must be visible to it.
     */
    async removeOrphanedAssets(hashes: string[]): Promise<number> {
      if (hashes.length === 0) return 0;
      const result = await run(sql`
        delete from image_assets a
        where a.hash in (${sql.join(
          hashes.map((h) => sql`${h}`),
          sql`, `,
        )})
          and not exists (select 1 from scene_images i where i.asset_hash = a.hash)
          and not exists (select 1 from shared_story_pictures sh where sh.asset_hash = a.hash)`);
      return result.rowCount ?? 0;
    },
  };
}
export type LibraryRepository = ReturnType<typeof createLibraryRepository>;
