// Deleting a story, or a player's account, with everything that hangs off it: one statement takes
// it from the owner at once (hidden, its shares and bookmarks gone), then its rows go in pieces
// (pieces.ts) so no transaction holds the database long; and, once they are gone, the stored
// pictures nothing shows any more. Usage rows stay for the operator's totals, without the story.
import { sql } from 'drizzle-orm';
import type { Db } from '../../client';
import { removeHiddenStory } from '../pieces';
import { MAX_ID, rows } from '../sql-values';

/** What the caller must still clean up: the shares to drop from caches, the pictures to remove once nothing shows them. */
export interface RemovedLeftovers {
  shareIds: string[];
  assetHashes: string[];
}

export function removals(db: Db) {
  return {
    /**
     * Deletes the owner's story unless a reply is being written. One statement takes it from them:
     * it is hidden (`importing`, so no read, turn or change finds it), and its shares and bookmarks
     * go; then its rows are deleted in pieces (pieces.ts). Stored pictures nothing else shows
     * any more are removed by the caller. Usage rows stay for the totals, without the story. Answers
     * the ids of the shares that went (their cached copies must be dropped), or 'busy' / 'missing'.
     */
    async remove(storyId: number, userId: number, now: Date): Promise<RemovedLeftovers | 'busy' | 'missing'> {
      if (storyId > MAX_ID) return 'missing';
      const [row] = await rows<{
        found: boolean;
        busy: boolean;
        share_ids: string[] | null;
        hashes: string[] | null;
      }>(
        db,
        sql`
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
          (select array_agg(hash) from hashes) as hashes`,
      );
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
    async removeAccount(userId: number): Promise<RemovedLeftovers> {
      const [row] = await rows<{ share_ids: string[] | null; hashes: string[] | null; story_ids: number[] | null }>(
        db,
        sql`
        with hidden as (update stories set importing = true where user_id = ${userId} returning id),
        shares as (delete from shared_stories where user_id = ${userId} returning id),
        hashes as (select distinct asset_hash as hash from scene_images where user_id = ${userId} and asset_hash is not null)
        select (select array_agg(id) from shares) as share_ids, (select array_agg(hash) from hashes) as hashes, (select array_agg(id) from hidden) as story_ids`,
      );
      for (const storyId of row.story_ids ?? []) await removeHiddenStory(db, storyId);
      await db.execute(sql`delete from users where id = ${userId}`);
      return { shareIds: row.share_ids ?? [], assetHashes: row.hashes ?? [] };
    },

    /**
     * Removes stored pictures that no scene picture and no shared snapshot shows any more (after a
     * story went). A separate statement: the delete above must be visible to it.
     */
    async removeOrphanedAssets(hashes: string[]): Promise<number> {
      if (hashes.length === 0) return 0;
      const result = await db.execute(sql`
        delete from image_assets a
        where a.hash in (${sql.join(
          hashes.map((h) => sql`${h}`),
          sql`, `,
        )})
          and not exists (select 1 from scene_images i where i.asset_hash = a.hash)
          and not exists (select 1 from shared_story_pictures sh where sh.asset_hash = a.hash)`);
      return (result as unknown as { rowCount: number | null }).rowCount ?? 0;
    },
  };
}
