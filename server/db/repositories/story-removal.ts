// Removes a story that is already hidden (`importing`: a deletion's first step, an import that
// failed or never finished) a piece at a time. The embedded database is one session: a story of
// 10,000 messages, 45,000 versions and 5,000 pictures deleted in one statement held it for more
// than a second (each message's cascade runs on its own), every other request waiting. Here each
// statement takes a few hundred messages, and the requests that arrived meanwhile run in between.
// A process that dies half way leaves the story hidden; the next start (or housekeeping) finishes.
import { sql } from 'drizzle-orm';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Db } from '../client';

/** Messages per statement, with their versions (up to 200 each), pictures and speech clips. */
const MESSAGES_PER_PIECE = 250;

/** Deletes a hidden story's messages (and what hangs off them) in pieces, then the story itself. */
export async function removeHiddenStory(db: Db, storyId: number): Promise<void> {
  const piece = sql`select id from story_messages where story_id = ${storyId} order by id limit ${MESSAGES_PER_PIECE}`;
  for (;;) {
    // Versions first, by the statement: their message's cascade would delete them one message at a time.
    await db.execute(sql`delete from message_versions where message_id in (${piece})`);
    const gone = await db.execute(sql`delete from story_messages where id in (${piece})`);
    if (((gone as unknown as { rowCount: number | null }).rowCount ?? 0) === 0) break;
    await nextTurn();
  }
  // What is left is small: memory folds, the style sheet, and its usage rows set to no story.
  await db.execute(sql`delete from stories where id = ${storyId} and importing`);
}
