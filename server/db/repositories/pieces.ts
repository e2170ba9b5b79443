// A story's big writes, in pieces: an import's or a branch's rows going in, a deleted story's going
// out. The embedded database is one session, and a statement or a transaction has it to itself:
// a 5 MB file written in one transaction held every other request for a second, a branch of a
// 10,000-message story copied in one statement held it 300 ms, and deleting that story 1.2 s. Here
// each piece is a few hundred rows and at most PIECE_BYTES of text, and the requests that arrived
// meanwhile run in between. Until its last piece the story is hidden (`importing`: no read, turn or
// change finds it), so it lands whole or not at all; one a dead process left hidden is removed at
// the next start or by housekeeping.
import { sql } from 'drizzle-orm';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Db } from '../client';
import { countRowsInBulk } from './quotas';
import { PIECE_BYTES } from './sql-values';

/** A transaction's handle, as Drizzle gives it. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/**
 * Rows per piece. Each piece is a transaction that every other query waits out on the embedded
 * database: 250 rows keep one near 15-40 ms, where 1,000 took up to 110.
 */
export const ROWS_PER_PIECE = 250;

/**
 * Runs `write` over `list` in pieces of at most ROWS_PER_PIECE rows and PIECE_BYTES of text (by
 * `bytesOf`), each piece its own transaction with the quota counters counting per statement.
 */
export async function inPieces<Row>(
  db: Db,
  list: Row[],
  bytesOf: (row: Row) => number,
  write: (tx: Tx, piece: Row[]) => Promise<void>,
): Promise<void> {
  for (let start = 0; start < list.length;) {
    let end = start;
    let bytes = 0;
    while (
      end < list.length &&
      end - start < ROWS_PER_PIECE &&
      (end === start || bytes + bytesOf(list[end]) <= PIECE_BYTES)
    ) {
      bytes += bytesOf(list[end]);
      end += 1;
    }
    const piece = list.slice(start, end);
    await db.transaction(async (tx) => {
      await countRowsInBulk(tx);
      await write(tx, piece);
    });
    start = end;
    // A turn of the event loop between pieces: requests that came in meanwhile queue their
    // queries before the next piece's, rather than each waiting out one piece per query.
    await nextTurn();
  }
}

/** Deletes a hidden story's messages (and what hangs off them) in pieces, then the story itself. */
export async function removeHiddenStory(db: Db, storyId: number): Promise<void> {
  const piece = sql`select id from story_messages where story_id = ${storyId} order by id limit ${ROWS_PER_PIECE}`;
  for (;;) {
    // Versions first, by the statement: their message's cascade would delete them one message at a time.
    await db.execute(sql`delete from message_versions where message_id in (${piece})`);
    await db.execute(sql`delete from narrator_contexts where message_id in (${piece})`);
    await db.execute(sql`delete from memory_passages where message_id in (${piece})`);
    const gone = await db.execute(sql`delete from story_messages where id in (${piece})`);
    if (((gone as unknown as { rowCount: number | null }).rowCount ?? 0) === 0) break;
    await nextTurn();
  }
  // What is left is small: memory folds, the style sheet, and its usage rows set to no story.
  await db.execute(sql`delete from stories where id = ${storyId} and importing`);
}
