// A fold of the story memory stored: the memory is replaced only if nobody changed it since the
// fold read it (another instance's fold, or the player's edit in the memory panel, whose words
// win), and the fold is kept beside it for undo, erase and branches to go back to.
import { sql } from 'drizzle-orm';
import type { Db } from '../../client';
import { executePrepared } from '../prepared';

/**
 * Replaces the memory only if nobody changed it since it was read: another fold (several
 * instances may try at once) or the player editing it in the story memory panel, whose words
 * win (the turns stay verbatim and fold into the edited memory later).
 */
export async function applyFold(
  db: Db,
  storyId: number,
  expected: { throughId: number; memory: string },
  throughId: number,
  memory: string,
  now: Date,
): Promise<boolean> {
  // The fold is kept too (branches and undo go back to it), in the same statement.
  const [row] = await executePrepared<{ applied: boolean }>(
    db,
    'story_apply_fold',
    sql`
    with applied as (
      update stories set memory = ${memory}, memory_through_id = ${throughId}
      where id = ${storyId} and memory_through_id = ${expected.throughId} and memory = ${expected.memory}
      returning id
    ), kept as (
      insert into story_memory_folds (story_id, through_id, memory, created_at)
      select id, ${throughId}, ${memory}, ${now.toISOString()}::timestamptz from applied
      on conflict (story_id, through_id) do update set memory = excluded.memory, created_at = excluded.created_at
    )
    select exists (select 1 from applied) as applied`,
  );
  return row.applied;
}
