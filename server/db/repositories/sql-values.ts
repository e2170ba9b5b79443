// Values repositories put into SQL the same way everywhere: the largest id an integer column can
// hold, a search text as a literal LIKE pattern, the rows of a raw statement, and how much text one
// transaction of a big write carries.
import type { SQL } from 'drizzle-orm';
import type { Db } from '../client';

/** A raw statement's rows, on the database or in a transaction (both backends answer node-postgres results; Drizzle types them loosely). */
export const rows = async <Row>(runner: Pick<Db, 'execute'>, query: SQL): Promise<Row[]> =>
  ((await runner.execute(query)) as unknown as { rows: Row[] }).rows;

/** Ids beyond PostgreSQL's integer range cannot exist; asking for one is simply "not found". */
export const MAX_ID = 2_147_483_647;

/** `%`, `_` and `\` are LIKE syntax; a search for "50%" means the text. */
export function likePattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * Text per transaction of a big write (an import, a share): the embedded database is one session,
 * and a transaction has it to itself, so this bounds how long another request waits behind the
 * write (tens of milliseconds). A 5 MB file written in one transaction held everyone for a second.
 */
export const PIECE_BYTES = 256 * 1024;
