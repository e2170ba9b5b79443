// How undo, erase and redo move messages: set aside ('undone', grouped by where the cut was) rather
// than deleted, and brought back as the group cut last. A change that moves more messages than a
// piece (pieces.ts) goes on a piece a statement under the story's lease, which every turn and
// change waits out like a reply's. A cut that reaches into turns the memory has folded takes the
// memory back to the fold before it (story_memory_folds).
import { sql, type SQL } from 'drizzle-orm';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Db } from '../../client';
import { ROWS_PER_PIECE, type Tx } from '../pieces';
import { MAX_ID, rows } from '../sql-values';

/** How long a change done in pieces holds the story at most (it lets go as soon as it is done). */
const CHANGE_LEASE_MS = 60_000;

/**
 * Sets aside the message `cutId` and every shown one after it, as one group redo brings back: the
 * memory goes back before them, and the last ROWS_PER_PIECE of them are set aside here; answers
 * their ids (a whole piece: more may be left, see inPiecesUnderLease).
 */
export async function setAside(tx: Tx, storyId: number, cutId: number, memoryThroughId: number): Promise<number[]> {
  const moved = await setAsidePiece(tx, storyId, cutId);
  if (memoryThroughId < cutId) return moved;
  // The memory summarises turns now set aside: back to the fold before them (none: no memory).
  await tx.execute(sql`
    with fold as (
      select through_id, memory from story_memory_folds where story_id = ${storyId} and through_id < ${cutId} order by through_id desc limit 1
    ), dropped as (
      delete from story_memory_folds where story_id = ${storyId} and through_id >= ${cutId}
    )
    update stories set memory = coalesce((select memory from fold), ''), memory_through_id = coalesce((select through_id from fold), 0)
    where id = ${storyId}`);
  return moved;
}

/**
 * Finishes a change whose first piece (`first`, its ids) went under the story's lock, one piece a
 * statement, each starting where the last one's ids ended. The story's lease (a reply's, which
 * every turn and change waits out) holds it meanwhile, so nothing is appended or changed between
 * pieces, and it lapses by itself if the process dies. Every piece leaves the story whole:
 * set-aside messages go from its end back, and come back from the cut on.
 */
export async function inPiecesUnderLease(
  db: Db,
  storyId: number,
  until: Date,
  first: number[],
  piece: (from: number[]) => Promise<number[]>,
): Promise<void> {
  try {
    for (let moved = first; moved.length === ROWS_PER_PIECE;) {
      await nextTurn();
      moved = await piece(moved);
    }
  } finally {
    await db.execute(
      sql`update stories set generating_until = null where id = ${storyId} and generating_until = ${until.toISOString()}::timestamptz`,
    );
  }
}

/** Holds the story (locked by `changing`) for the pieces still to go. */
export async function lease(tx: Tx, storyId: number, now: Date): Promise<Date> {
  const until = new Date(now.getTime() + CHANGE_LEASE_MS);
  await tx.execute(
    sql`update stories set generating_until = ${until.toISOString()}::timestamptz where id = ${storyId}`,
  );
  return until;
}

/**
 * The group redo brings back: the smallest cut among set-aside messages after the story's last
 * shown one (a later undo always cuts earlier, so the smallest is the last made). Null when none.
 */
export function redoGroup(storyId: number): SQL {
  return sql`(select min(undone_from) from story_messages
      where story_id = ${storyId} and state = 'undone'
        and id > coalesce((select id from story_messages where story_id = ${storyId} and state = 'shown' order by id desc limit 1), 0))`;
}

/**
 * Sets aside the last ROWS_PER_PIECE shown messages from `cutId` on and before `before` (the story's
 * end first); answers their ids. Each piece starts where the last one ended: scanned from the end
 * each time, every piece passed over the index entries of all the pieces before it.
 */
export async function setAsidePiece(
  runner: Pick<Db, 'execute'>,
  storyId: number,
  cutId: number,
  before = MAX_ID,
): Promise<number[]> {
  const moved = await rows<{ id: number }>(
    runner,
    sql`update story_messages set state = 'undone', undone_from = ${cutId}
        where id in (select id from story_messages where story_id = ${storyId} and state = 'shown' and id >= ${cutId} and id < ${before} order by id desc limit ${ROWS_PER_PIECE})
        returning id`,
  );
  return moved.map((m) => m.id);
}

/** Brings back the first ROWS_PER_PIECE messages of the group set aside at `cut` after `after` (the cut first); answers their ids. */
export async function bringBackPiece(
  runner: Pick<Db, 'execute'>,
  storyId: number,
  cut: number,
  after = 0,
): Promise<number[]> {
  const moved = await rows<{ id: number }>(
    runner,
    sql`update story_messages set state = 'shown', undone_from = null
        where id in (select id from story_messages where story_id = ${storyId} and state = 'undone' and undone_from = ${cut} and id > ${after} order by id limit ${ROWS_PER_PIECE})
        returning id`,
  );
  return moved.map((m) => m.id);
}
