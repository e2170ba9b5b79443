// Named prepared statements for the statements every story turn runs. PostgreSQL (and PGlite, the
// same planner compiled to WebAssembly) then parses and plans each once per connection instead of
// on every call: on PGlite the two statements of a turn took 1.5 ms unnamed and 0.8 ms prepared
// (docs/benchmarks.md, "Streaming at scale"). Only statements whose text never varies may be named:
// node-postgres refuses a name reused for another text.
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import type { Db } from '../client';

const dialect = new PgDialect();

/** Runs `query` as the prepared statement `name` on the database's pool; answers its rows. */
export async function executePrepared<Row>(db: Db, name: string, query: SQL): Promise<Row[]> {
  const { sql: text, params } = dialect.sqlToQuery(query);
  // Both backends are node-postgres pools (PGlite through its thread), which Drizzle exposes as $client.
  const pool = (db as unknown as { $client: pg.Pool }).$client;
  const result = await pool.query<Row & pg.QueryResultRow>({ name, text, values: params });
  return result.rows;
}
