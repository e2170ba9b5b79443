// Undo, redo and erase: the player taking back the story's last turn, bringing back what was taken
// last, or cutting the story at a message. The first piece goes in the change's transaction; a cut
// longer than a piece finishes under the story's lease (set-aside.ts).
import { sql } from 'drizzle-orm';
import type { Db } from '../../client';
import { ROWS_PER_PIECE } from '../pieces';
import { rows } from '../sql-values';
import { bringBackPiece, inPiecesUnderLease, lease, redoGroup, setAside, setAsidePiece } from './set-aside';
import { changing, shownMessage, type ChangeResult } from './story-change';

/** Takes back the story's last turn (its last action and what follows); 'nothing' when only the opening is left. */
export async function undo(
  db: Db,
  storyId: number,
  userId: number,
  now: Date,
): Promise<ChangeResult<'done' | 'nothing'>> {
  const begun = await changing(db, storyId, userId, now, async (tx, story) => {
    const [last] = await rows<{ id: number }>(
      tx,
      sql`select id from story_messages where story_id = ${storyId} and state = 'shown' and role = 'user' and not is_initial order by id desc limit 1`,
    );
    if (!last) return 'nothing';
    const moved = await setAside(tx, storyId, last.id, story.memoryThroughId);
    return moved.length === ROWS_PER_PIECE ? { cut: last.id, moved, until: await lease(tx, storyId, now) } : 'done';
  });
  if (typeof begun === 'string') return begun;
  await inPiecesUnderLease(db, storyId, begun.until, begun.moved, (before) =>
    setAsidePiece(db, storyId, begun.cut, Math.min(...before)),
  );
  return 'done';
}

/**
 * Brings back the part set aside last, if it still follows the story's end: a new action sent
 * since then ends redo (those turns stay set aside, kept).
 */
export async function redo(
  db: Db,
  storyId: number,
  userId: number,
  now: Date,
): Promise<ChangeResult<'done' | 'nothing'>> {
  const begun = await changing(db, storyId, userId, now, async (tx) => {
    const [group] = await rows<{ cut: number | null }>(tx, sql`select ${redoGroup(storyId)} as cut`);
    if (group?.cut == null) return 'nothing';
    const cut = group.cut;
    const moved = await bringBackPiece(tx, storyId, cut);
    return moved.length === ROWS_PER_PIECE ? { cut, moved, until: await lease(tx, storyId, now) } : 'done';
  });
  if (typeof begun === 'string') return begun;
  await inPiecesUnderLease(db, storyId, begun.until, begun.moved, (after) =>
    bringBackPiece(db, storyId, begun.cut, Math.max(...after)),
  );
  return 'done';
}

/** Whether redo has something to bring back (the story's reads tell the client). */
export async function canRedo(db: Db, storyId: number): Promise<boolean> {
  const [row] = await rows<{ cut: number | null }>(db, sql`select ${redoGroup(storyId)} as cut`);
  return row?.cut != null;
}

/** Sets aside `fromId` and everything after it; 'opening' for the premise and its first reply. */
export async function erase(
  db: Db,
  storyId: number,
  userId: number,
  fromId: number,
  now: Date,
): Promise<ChangeResult<'done' | 'message' | 'opening'>> {
  const begun = await changing(db, storyId, userId, now, async (tx, story) => {
    const message = await shownMessage(tx, storyId, fromId);
    if (!message) return 'message';
    if (message.turn === 0) return 'opening';
    const moved = await setAside(tx, storyId, fromId, story.memoryThroughId);
    return moved.length === ROWS_PER_PIECE ? { moved, until: await lease(tx, storyId, now) } : 'done';
  });
  if (typeof begun === 'string') return begun;
  await inPiecesUnderLease(db, storyId, begun.until, begun.moved, (before) =>
    setAsidePiece(db, storyId, fromId, Math.min(...before)),
  );
  return 'done';
}
