// The API suites' embedded databases. Loading the migrated template into a new PGlite thread costs
// about 2.4 s of CPU (the WebAssembly, the data dir, PostgreSQL's start), once per test file; so a
// Vitest worker keeps the threads its files used and hands each to the next file emptied back to the
// template's state, which takes milliseconds. The projects run without isolation (vitest.config.ts),
// so this module, and the threads it keeps, live as long as the worker.
//
// Emptied means: every table of `public` truncated and its sequences restarted, any schema the
// template did not have dropped (pg-boss makes its own when an app starts), the session's settings
// and locks reset. A file that changed the schema itself (dropped a table, added a trigger) is seen by
// the schema's fingerprint and its thread is closed instead of kept.
import pg from 'pg';
import { pgliteOnThread, type Database } from '../db/client';
import { PGLITE_START_PARAMS } from '../db/pglite-setup';
import { PGliteThread } from '../db/pglite-thread';

/** Everything that makes the schema what it is, as one digest; rows of `public` count too, so a template with rows is refused. */
const FINGERPRINT = `
  SELECT md5(string_agg(item, '|' ORDER BY item)) AS digest FROM (
    SELECT 'schema ' || nspname AS item FROM pg_namespace
    UNION ALL SELECT 'column ' || table_schema || '.' || table_name || '.' || column_name || ' ' || data_type || ' '
      || is_nullable || ' ' || coalesce(column_default, '')
      FROM information_schema.columns WHERE table_schema NOT IN ('pg_catalog', 'information_schema')
    UNION ALL SELECT 'index ' || schemaname || ' ' || indexdef FROM pg_indexes WHERE schemaname <> 'pg_catalog'
    UNION ALL SELECT 'constraint ' || conrelid::regclass || ' ' || conname || ' ' || pg_get_constraintdef(oid)
      FROM pg_constraint WHERE connamespace <> 'pg_catalog'::regnamespace
    UNION ALL SELECT 'trigger ' || tgrelid::regclass || ' ' || tgname FROM pg_trigger WHERE NOT tgisinternal
    UNION ALL SELECT 'function ' || n.nspname || '.' || p.proname || ' ' || md5(p.prosrc)
      FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
      WHERE n.nspname NOT IN ('pg_catalog', 'information_schema')
    UNION ALL SELECT 'migrations ' || count(*) FROM drizzle.__drizzle_migrations
    UNION ALL SELECT 'rows ' || relname FROM pg_stat_user_tables WHERE schemaname = 'public' AND n_live_tup > 0
  ) AS everything`;

const EMPTY = `
  DO $$
  DECLARE tables text;
  BEGIN
    SELECT string_agg(format('%I.%I', schemaname, tablename), ', ') INTO tables FROM pg_tables WHERE schemaname = 'public';
    IF tables IS NOT NULL THEN EXECUTE 'TRUNCATE ' || tables || ' RESTART IDENTITY CASCADE'; END IF;
  END $$`;

interface Kept {
  thread: PGliteThread;
  schemas: string[];
  fingerprint: string;
}

const idle: Kept[] = [];

async function onThread<T>(thread: PGliteThread, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ user: 'postgres', database: 'postgres', stream: () => thread.connection() });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function fingerprintOf(client: pg.Client): Promise<string> {
  // pg_stat_user_tables counts what this session did; make it count now.
  await client.query('SELECT pg_stat_force_next_flush()').catch(() => {});
  return (await client.query<{ digest: string }>(FINGERPRINT)).rows[0].digest;
}

async function schemasOf(client: pg.Client): Promise<string[]> {
  return (await client.query<{ nspname: string }>('SELECT nspname FROM pg_namespace')).rows.map((r) => r.nspname);
}

/** Back to the template's state; false when the file changed the schema and the thread cannot be reused. */
async function empty(kept: Kept): Promise<boolean> {
  return onThread(kept.thread, async (client) => {
    await client.query('DISCARD ALL');
    for (const schema of await schemasOf(client)) {
      if (!kept.schemas.includes(schema)) await client.query(`DROP SCHEMA "${schema.replaceAll('"', '""')}" CASCADE`);
    }
    await client.query(EMPTY);
    return (await fingerprintOf(client)) === kept.fingerprint;
  });
}

/** A migrated, empty embedded database for one test file; `template` is read only when a new thread is needed. */
export async function takeEmbeddedDatabase(template: () => Promise<Uint8Array>): Promise<Database> {
  let kept = idle.pop();
  while (kept && !(await empty(kept).catch(() => false))) {
    await kept.thread.close().catch(() => {});
    kept = idle.pop();
  }
  if (!kept) {
    const thread = await PGliteThread.start({ loadDataDir: await template(), startParams: PGLITE_START_PARAMS });
    const [schemas, fingerprint] = await onThread(thread, async (client) => [
      await schemasOf(client),
      await fingerprintOf(client),
    ]);
    kept = { thread, schemas, fingerprint };
  }
  const taken = kept;
  // (An idle thread does not keep the worker alive: PGliteThread unrefs itself when nothing is pending.)
  return pgliteOnThread(taken.thread, async () => {
    idle.push(taken);
  });
}
