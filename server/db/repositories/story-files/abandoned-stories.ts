// The clean-up after a process that died mid-write: a story left hidden (`importing`) by an import,
// a branch or a deletion that never finished is deleted, in pieces like any big write, at the next
// start (every one, on the embedded database) or by housekeeping (those begun before a time it gives).
import { and, eq, lt } from 'drizzle-orm';
import type { Db } from '../../client';
import { stories } from '../../schema';
import { removeHiddenStory } from '../pieces';

/**
 * Deletes the hidden stories whose import or deletion never finished (its process died): all of
 * them at start-up on the embedded database, else those begun before `before`. Each in pieces.
 */
export async function deleteAbandonedImports(db: Db, before?: Date): Promise<number> {
  const abandoned = await db
    .select({ id: stories.id })
    .from(stories)
    .where(and(eq(stories.importing, true), before ? lt(stories.updatedAt, before) : undefined));
  for (const { id } of abandoned) await removeHiddenStory(db, id);
  return abandoned.length;
}
