// Values repositories put into SQL the same way everywhere: the largest id an integer column can
// hold, a search text as a literal LIKE pattern, and the rows of a raw statement.
import type { SQL } from 'drizzle-orm';
import type { Db } from '../client';

/** A raw statement's rows, on the database or in a transaction (both backends answer node-postgres results; Drizzle types them loosely). */
export const rows = async <Row>(runner: Pick<Db, 'execute'>, query: SQL): Promise<Row[]> => ((await runner.execute(query)) as unknown as { rows: Row[] }).rows;

/** Ids beyond PostgreSQL's integer range cannot exist; asking for one is simply "not found". */
export const MAX_ID = 2_147_483_647;

/** `%`, `_` and `\` are LIKE syntax; a search for "50%" means the text. */
export function likePattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
