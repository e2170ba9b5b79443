// The embedded database thread speaks PostgreSQL's wire protocol to node-postgres: results and
// errors as a PostgreSQL server gives them, prepared statements per connection, several connections
// on PGlite's one session with a transaction having it to itself, a connection that dies
// mid-transaction leaving nothing behind, the WAL fsynced on flush, a dump that loads again, and a
// thread that dies failing loudly.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Worker } from 'node:worker_threads';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { PGLITE_START_PARAMS } from './pglite-setup';
import { PGliteThread } from './pglite-thread';

const cleanups: Array<() => Promise<void>> = [];

// Every in-memory thread below starts from the dump of the run's one initdb (global-setup.ts),
// which takes about a third of the time of a fresh initdb (1.9 s against 5 s on the CI machine).
let template: Uint8Array;
let templateDir: string;
beforeAll(async () => {
  template = new Uint8Array(await readFile(inject('pgliteEmptyTemplatePath')));
  templateDir = await mkdtemp(join(tmpdir(), 'tw-thread-template-'));
}, 60_000);
afterAll(async () => {
  await rm(templateDir, { recursive: true, force: true });
});

async function startThread(
  options: { loadDataDir?: Uint8Array; dataDir?: string; onExit?: (error: Error) => void; connections?: number } = {},
) {
  const from = options.dataDir ? {} : { loadDataDir: options.loadDataDir ?? template };
  // Each thread lives one test: V8's baseline compiler alone (EMBEDDED_DB_COMPILER=baseline, as this
  // tier's servers start).
  const thread = await PGliteThread.start({
    startParams: PGLITE_START_PARAMS,
    baselineCompiler: true,
    ...options,
    ...from,
  });
  const pool = new pg.Pool({
    max: options.connections ?? 4,
    idleTimeoutMillis: 0,
    user: 'postgres',
    database: 'postgres',
    stream: () => thread.connection(),
  });
  pool.on('error', () => {});
  cleanups.push(async () => {
    await pool.end().catch(() => {});
    await thread.close().catch(() => {});
  });
  await pool.query(
    'create table if not exists notes (id serial primary key, body text unique not null, at timestamptz not null default now())',
  );
  return { thread, pool };
}

// Last in, first out: a data dir is removed only after every thread on it has closed (a thread
// still closing writes into it, and removing it beside that failed with ENOTEMPTY).
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

// Each test starts a fresh PGlite (initdb in WebAssembly): seconds on a quiet machine, more while the
// API projects run beside it, so the default 5 s is too short for a check that is not about speed.
describe('PGliteThread', { timeout: 30_000 }, () => {
  it('answers queries with parameters, unnamed and prepared, as PostgreSQL does', async () => {
    const { pool } = await startThread();
    const inserted = await pool.query('insert into notes (body, at) values ($1, $2), ($3, $2) returning id', [
      'first',
      '2026-11-25T10:00:00Z',
      'second',
    ]);
    expect(inserted.rows).toEqual([{ id: 1 }, { id: 2 }]);
    expect(inserted.rowCount).toBe(2);
    for (let round = 0; round < 3; round += 1) {
      const { rows, fields } = await pool.query({
        name: 'note-by-id',
        text: 'select id, body, at from notes where id = $1',
        values: [2],
      });
      expect(rows).toEqual([{ id: 2, body: 'second', at: new Date('2026-11-25T10:00:00Z') }]);
      expect(fields.map((field) => field.name)).toEqual(['id', 'body', 'at']);
    }
    // A script of several statements, as the job queue and housekeeping send them.
    const script = (await pool.query(
      "insert into notes (body) values ('third'); select count(*)::int as n from notes",
    )) as unknown as pg.QueryResult[];
    expect(script[1].rows).toEqual([{ n: 3 }]);
  });

  it("keeps each connection's prepared statements its own, though they share one session", async () => {
    const { pool } = await startThread();
    const [a, b] = [await pool.connect(), await pool.connect()];
    // The same name on two connections: PostgreSQL would refuse it twice on one session.
    expect((await a.query({ name: 'pick', text: 'select $1::int + 1 as n', values: [1] })).rows).toEqual([{ n: 2 }]);
    expect((await b.query({ name: 'pick', text: 'select $1::int + 1 as n', values: [10] })).rows).toEqual([{ n: 11 }]);
    expect((await a.query({ name: 'pick', text: 'select $1::int + 1 as n', values: [5] })).rows).toEqual([{ n: 6 }]);
    const names = await a.query("select name from pg_prepared_statements where name like '%pick' order by name");
    expect(names.rows.map((row) => row.name)).toHaveLength(2);
    a.release();
    b.release();
  });

  it('runs the statements of many connections at once, each answered to its own', async () => {
    const { pool } = await startThread({ connections: 8 });
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => pool.query({ name: 'echo', text: 'select $1::int as n', values: [i] })),
    );
    expect(answers.map((answer) => answer.rows[0].n)).toEqual(Array.from({ length: 50 }, (_, i) => i));
  });

  it('answers a result larger than PGlite hands over at once whole and in order', async () => {
    const { pool } = await startThread();
    // About 2.5 MB of rows: PGlite streams that in several pieces, each copied before the next.
    const { rows } = await pool.query('select n, repeat(md5(n::text), 4) as body from generate_series(1, 20000) as n');
    expect(rows).toHaveLength(20000);
    const [first, last] = [rows[0], rows[19999]];
    expect(first.n).toBe(1);
    expect(last.n).toBe(20000);
    const check = await pool.query("select repeat(md5('20000'), 4) as body");
    expect(last.body).toBe(check.rows[0].body);
    expect(rows.every((row, i) => row.n === i + 1 && row.body.length === 128)).toBe(true);
  });

  it('answers errors with their PostgreSQL code and constraint, and goes on serving', async () => {
    const { pool } = await startThread();
    await pool.query("insert into notes (body) values ('once')");
    const error = await pool.query("insert into notes (body) values ('once')").catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      code: '23505',
      constraint: 'notes_body_key',
      message: expect.stringContaining('duplicate key'),
    });
    await expect(pool.query('select nothing from nowhere')).rejects.toMatchObject({ code: '42P01' });
    expect((await pool.query('select count(*)::int as n from notes')).rows).toEqual([{ n: 1 }]);
  });

  it('gives a transaction the session to itself: a query from another connection waits, and a rollback takes only its own work', async () => {
    const { pool } = await startThread();
    const client = await pool.connect();
    await client.query('begin');
    await client.query("insert into notes (body) values ('inside')");
    let outsideDone = false;
    const outside = pool.query("insert into notes (body) values ('outside')").then(() => (outsideDone = true));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(outsideDone).toBe(false);
    await client.query('rollback');
    client.release();
    await outside;
    expect((await pool.query('select body from notes')).rows).toEqual([{ body: 'outside' }]);
  });

  it('rolls back what a connection that died mid-transaction left open before the next one starts', async () => {
    const { pool } = await startThread();
    const client = await pool.connect();
    await client.query('begin');
    await client.query("insert into notes (body) values ('never committed')");
    await client.query({ name: 'stale', text: 'select 1' });
    client.release(new Error('the connection broke'));
    // The next connection: no open transaction, and the name of the old prepared statement is free.
    expect((await pool.query('select count(*)::int as n from notes')).rows).toEqual([{ n: 0 }]);
    expect((await pool.query({ name: 'stale', text: 'select 2 as two' })).rows).toEqual([{ two: 2 }]);
    await pool.query("insert into notes (body) values ('committed')");
    expect((await pool.query('select body from notes')).rows).toEqual([{ body: 'committed' }]);
  });

  it('fsyncs the WAL on flush when something ran since the last one, and only then', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'tw-thread-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const { thread, pool } = await startThread({ dataDir });
    await pool.query("insert into notes (body) values ('durable')");
    expect(await thread.flush()).toBe(true);
    expect(await thread.flush()).toBe(false);
    await pool.query('select 1');
    const [first, second] = await Promise.all([thread.flush(), thread.flush()]);
    expect([first, second]).toEqual([true, false]);
  });

  it('checkpoints once enough WAL was written: older WAL is no longer kept, and every row stays', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'tw-thread-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const { thread, pool } = await startThread({ dataDir });
    const segments = async () =>
      (await readdir(join(dataDir, 'pg_wal'))).filter((name) => /^[0-9A-F]{24}$/.test(name)).sort();
    for (let round = 0; round < 3; round += 1) {
      await pool.query('insert into notes (body) select $1 || g from generate_series(1, 100) g', [`round ${round} `]);
      await pool.query('select pg_switch_wal()');
    }
    await pool.query("insert into notes (body) values ('last')");
    const redo = async () =>
      (await pool.query('select redo_wal_file from pg_control_checkpoint()')).rows[0].redo_wal_file as string;
    const before = await redo();
    expect((await segments())[0] <= before).toBe(true);
    // Under the threshold nothing happens; over it the checkpoint moves the redo point to the newest segment.
    expect(await thread.checkpointIfDue(1024 * 1024 * 1024)).toBe(false);
    expect(await redo()).toBe(before);
    expect(await thread.checkpointIfDue(1)).toBe(true);
    const after = await redo();
    expect(after > before).toBe(true);
    expect((await segments()).every((name) => name >= after)).toBe(true);
    expect(await thread.checkpointIfDue(1024 * 1024 * 1024)).toBe(false);

    await pool.end();
    await thread.close();
    const reopened = await startThread({ dataDir });
    expect((await reopened.pool.query('select count(*)::int as n from notes')).rows).toEqual([{ n: 301 }]);
  });

  it('dumps a data dir that another thread starts from', async () => {
    const { thread, pool } = await startThread();
    await pool.query("insert into notes (body) values ('carried over')");
    const copy = await startThread({ loadDataDir: await thread.dumpDataDir() });
    expect((await copy.pool.query('select body from notes')).rows).toEqual([{ body: 'carried over' }]);
  });

  it('fails every query and tells the server when the thread dies', async () => {
    const exits: Error[] = [];
    const { thread, pool } = await startThread({ onExit: (error) => exits.push(error) });
    const pending = pool.query('select pg_sleep(0.5)');
    await (thread as unknown as { worker: Worker }).worker.terminate();
    await expect(pending).rejects.toThrow('The embedded database thread stopped');
    await expect(pool.query('select 1')).rejects.toThrow('The embedded database thread stopped');
    expect(exits).toHaveLength(1);
  });

  it('resumes whoever awaits close() in a process with nothing else to do', async () => {
    // Without a timer holding the event loop while the thread terminates, such a process exited
    // (code 0) in the middle of about half of all closes, before printing anything.
    const script = fileURLToPath(new URL('./fixtures/open-and-close.ts', import.meta.url));
    const templatePath = join(templateDir, 'template.tar');
    await writeFile(templatePath, template);
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', script, '4', templatePath], {
      timeout: 60_000,
    });
    expect(stdout.trim()).toBe('closed 4');
  }, 90_000);
});
