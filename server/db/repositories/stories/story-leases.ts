// The one-generation-per-story lease (stories.generating_until): taken before a reply or a change
// in pieces is written, moved on by the loop guard's second call, let go when the work is stored,
// and lapsing by itself when a process dies mid-turn. Every writer of a story's messages waits it
// out, so a turn never reads half a change and two generations never interleave.
import { and, eq, gt, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../client';
import { stories } from '../../schema';
import { MAX_ID } from '../sql-values';
import type { StoryRecord } from '../story-records';
import { storyColumns } from './story-columns';

/**
 * Takes the one-generation-per-story lease on the owner's story and returns the story, in one
 * statement (it sits before the provider call, on the time-to-first-word path). Null when the
 * story is not the owner's, the lease is held or (with `maxStoredBytes`) the owner's stored text
 * is past that many bytes; the caller tells them apart.
 */
export async function leaseOwned(
  db: Db,
  storyId: number,
  userId: number,
  now: Date,
  until: Date,
  maxStoredBytes?: number,
): Promise<StoryRecord | null> {
  if (storyId > MAX_ID) return null;
  const withinStorage =
    maxStoredBytes === undefined
      ? undefined
      : sql`coalesce((select q.stored_bytes from user_stats q where q.user_id = ${userId}), 0) <= ${maxStoredBytes}::bigint`;
  const [row] = await db
    .update(stories)
    .set({ generatingUntil: until })
    .where(
      and(
        eq(stories.id, storyId),
        eq(stories.userId, userId),
        eq(stories.importing, false),
        or(isNull(stories.generatingUntil), lt(stories.generatingUntil, now)),
        withinStorage,
      ),
    )
    .returning(storyColumns);
  return row ?? null;
}

/** Takes the one-generation-per-story lease; false while another generation holds it. */
export async function acquireLease(db: Db, storyId: number, now: Date, until: Date): Promise<boolean> {
  const rows = await db
    .update(stories)
    .set({ generatingUntil: until })
    .where(and(eq(stories.id, storyId), or(isNull(stories.generatingUntil), lt(stories.generatingUntil, now))))
    .returning({ id: stories.id });
  return rows.length > 0;
}

export async function releaseLease(db: Db, storyId: number): Promise<void> {
  await db.update(stories).set({ generatingUntil: null }).where(eq(stories.id, storyId));
}

/** Moves a held lease's end to `until` (the loop guard's second call); false when the lease is no longer held. */
export async function extendLease(db: Db, storyId: number, until: Date): Promise<boolean> {
  const rows = await db
    .update(stories)
    .set({ generatingUntil: until })
    .where(and(eq(stories.id, storyId), isNotNull(stories.generatingUntil)))
    .returning({ id: stories.id });
  return rows.length > 0;
}

/** At start-up (single process on PGlite) nothing can still be generating. */
export async function releaseAllLeases(db: Db): Promise<number> {
  const rows = await db
    .update(stories)
    .set({ generatingUntil: null })
    .where(isNotNull(stories.generatingUntil))
    .returning({ id: stories.id });
  return rows.length;
}

export async function isGenerating(db: Db, storyId: number, now: Date): Promise<boolean> {
  const [row] = await db
    .select({ id: stories.id })
    .from(stories)
    .where(and(eq(stories.id, storyId), gt(stories.generatingUntil, now)));
  return Boolean(row);
}
