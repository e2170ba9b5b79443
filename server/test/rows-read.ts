// How many rows of a table a statement reads, as the database runs it (EXPLAIN ANALYZE, inside a
// transaction that is rolled back): the API tests that hold a statement's work to its own size,
// never its story's, ask it of a new database (no statistics: PGlite never analyses on its own)
// and of one analysed.
import { PgDialect } from 'drizzle-orm/pg-core';
import type { SQL } from 'drizzle-orm';
import type pg from 'pg';
import type { TestContext } from './test-app';

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  Plans?: PlanNode[];
}

/** Rows every scan of `relation` in the plan produced, over all its loops. */
function rowsRead(node: PlanNode, relation: string): number {
  const own =
    node['Relation Name'] === relation && /Scan/.test(node['Node Type'])
      ? node['Actual Rows'] * node['Actual Loops']
      : 0;
  return own + (node.Plans ?? []).reduce((sum, child) => sum + rowsRead(child, relation), 0);
}

/** Rows of `relation` the statement reads, as a new database runs it and once analysed. */
export async function rowsReadBy(
  ctx: TestContext,
  query: SQL,
  relation = 'story_messages',
): Promise<Record<'no statistics' | 'analysed', number>> {
  const { sql: text, params } = new PgDialect().sqlToQuery(query);
  const pool = (ctx.database.db as unknown as { $client: pg.Pool }).$client;
  const connection = await pool.connect();
  const read = { 'no statistics': 0, analysed: 0 };
  try {
    for (const analysed of [false, true]) {
      if (analysed) await connection.query(`analyze ${relation}`);
      await connection.query('begin');
      const explained = await connection.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(
        `explain (analyze, format json) ${text}`,
        params,
      );
      await connection.query('rollback');
      read[analysed ? 'analysed' : 'no statistics'] = rowsRead(explained.rows[0]['QUERY PLAN'][0].Plan, relation);
    }
  } finally {
    connection.release();
  }
  return read;
}
