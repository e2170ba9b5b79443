// The embedded database thread speaks PostgreSQL's wire protocol to node-postgres: results and
// errors as a PostgreSQL server gives them, prepared statements, a transaction that has the one
// session to itself, a connection that dies mid-transaction leaving nothing behind for the next,
// a dump that loads again, and a thread that dies failing loudly.
import type { Worker } from 'node:worker_threads';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { PGLITE_START_PARAMS } from './pglite-setup';
import { PGliteThread } from './pglite-thread';

const cleanups: Array<() => Promise<void>> = [];

async function startThread(options: { loadDataDir?: Uint8Array; onExit?: (error: Error) => void } = {}) {
  const thread = await PGliteThread.start({ startParams: PGLITE_START_PARAMS, ...options });
  const pool = new pg.Pool({ max: 1, idleTimeoutMillis: 0, user: 'postgres', database: 'postgres', stream: () => thread.connection() });
  pool.on('error', () => {});
  cleanups.push(async () => {
    await pool.end().catch(() => {});
    await thread.close().catch(() => {});
  });
  await pool.query('create table if not exists notes (id serial primary key, body text unique not null, at timestamptz not null default now())');
  return { thread, pool };
}

afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

describe('PGliteThread', () => {
  it('answers queries with parameters, unnamed and prepared, as PostgreSQL does', async () => {
    const { pool } = await startThread();
    const inserted = await pool.query('insert into notes (body, at) values ($1, $2), ($3, $2) returning id', ['first', '2026-11-25T10:00:00Z', 'second']);
    expect(inserted.rows).toEqual([{ id: 1 }, { id: 2 }]);
    expect(inserted.rowCount).toBe(2);
    for (let round = 0; round < 3; round += 1) {
      const { rows, fields } = await pool.query({ name: 'note-by-id', text: 'select id, body, at from notes where id = $1', values: [2] });
      expect(rows).toEqual([{ id: 2, body: 'second', at: new Date('2026-11-25T10:00:00Z') }]);
      expect(fields.map((field) => field.name)).toEqual(['id', 'body', 'at']);
    }
    // A script of several statements, as the job queue and housekeeping send them.
    const script = (await pool.query("insert into notes (body) values ('third'); select count(*)::int as n from notes")) as unknown as pg.QueryResult[];
    expect(script[1].rows).toEqual([{ n: 3 }]);
  });

  it('answers errors with their PostgreSQL code and constraint, and goes on serving', async () => {
    const { pool } = await startThread();
    await pool.query("insert into notes (body) values ('once')");
    const error = await pool.query("insert into notes (body) values ('once')").catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: '23505', constraint: 'notes_body_key', message: expect.stringContaining('duplicate key') });
    await expect(pool.query('select nothing from nowhere')).rejects.toMatchObject({ code: '42P01' });
    expect((await pool.query('select count(*)::int as n from notes')).rows).toEqual([{ n: 1 }]);
  });

  it('gives a transaction the session to itself: a query from outside waits, and a rollback takes only its own work', async () => {
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
});
