// Opens the database the config asks for: embedded PGlite in DATA_DIR (default) or PostgreSQL
// when DATABASE_URL is set. Both are reached through node-postgres (PGlite in its own thread,
// speaking the wire protocol: pglite-thread.ts), so they run the same driver, migrations and
// Drizzle queries; callers see one `Database` handle.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import type { EmbeddedDbCompiler } from '@server/kernel/config';
import * as schema from './schema';
import { lockDataDir } from './data-dir-lock';
import { DataDirSweeper } from './durability';
import { initDataDirInChild, PGLITE_START_PARAMS } from './pglite-setup';
import { PGliteThread } from './pglite-thread';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  migrate(): Promise<void>;
  /** Throws when the database does not answer. */
  ping(): Promise<void>;
  /** Resolves once committed writes are durable (PGlite: fsync of the WAL; PostgreSQL does it itself). */
  flush(): Promise<void>;
  close(): Promise<void>;
  /**
   * Raw SQL for libraries that bring their own queries (the pg-boss job queue): with values one
   * parameterised statement, without them a script of several statements. Answers the last result.
   */
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
  /** A connection of its own, for work that needs one session (the operator's backup and restore); release it. */
  connect(): Promise<pg.PoolClient>;
  /** PGlite only: the whole data dir as a tarball (tests clone a migrated database from it). */
  dumpDataDir?(): Promise<Uint8Array>;
  /** The pool's connections now (open, idle) and the queries waiting for one; read by the metrics when scraped. */
  poolUse?(): { total: number; idle: number; waiting: number };
}

export const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));
const SWEEP_INTERVAL_MS = 5_000;
/**
 * A checkpoint once this much WAL was written since the last: about 80 s of 200 players at once.
 * It bounds the WAL on disk and what a restart after a crash replays; each held the thread for
 * 14-15 ms at 200 players (writing the dirty buffers), and pages first changed after it are logged whole.
 */
export const WAL_CHECKPOINT_BYTES = 64 * 1024 * 1024;
const CHECKPOINT_CHECK_MS = 15_000;
/**
 * Connections to PGlite's one session. More than one lets the statements of concurrent requests
 * queue in the database thread back to back; a transaction still has the session to itself. With
 * the memory bank's reads, a turn makes more round trips: at 8, bench:soak's 200 players waited
 * for a connection (a lease's round trip p50 85 ms; 29 ms at 32).
 */
const PGLITE_CONNECTIONS = 32;

export type DatabaseOptions =
  /** onFailure: the lock on DATA_DIR was lost, or the database thread died; the server must stop. */
  | {
      kind: 'pglite';
      dataDir: string;
      onFailure?: (error: Error) => void;
      /** EMBEDDED_DB_COMPILER: `baseline` starts on less CPU, for short-lived servers. */
      compiler?: EmbeddedDbCompiler;
    }
  /** In-memory PGlite, optionally cloned from a dumped data dir (tests). */
  | { kind: 'pglite-memory'; loadDataDir?: Uint8Array; compiler?: EmbeddedDbCompiler }
  | { kind: 'postgres'; url: string; poolSize?: number };

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.kind === 'postgres') {
    const size = options.poolSize ?? 10;
    const pool = new pg.Pool({ connectionString: options.url, max: size, min: size });
    // Every connection opened before the first request and kept: a burst after a quiet spell
    // otherwise opened them all at once (a backend process each on the database server), every
    // query in the meantime waiting for one.
    const warm = await Promise.all(Array.from({ length: size }, () => pool.connect()));
    for (const client of warm) client.release();
    return poolDatabase('postgres', pool, { flush: () => Promise.resolve(), close: () => pool.end() });
  }
  if (options.kind === 'pglite-memory') {
    const thread = await PGliteThread.start({
      loadDataDir: options.loadDataDir,
      startParams: PGLITE_START_PARAMS,
      baselineCompiler: options.compiler === 'baseline',
    });
    return pgliteDatabase(thread, {});
  }
  const onFailure =
    options.onFailure ??
    ((error: Error) => {
      throw error;
    });
  const release = await lockDataDir(options.dataDir, onFailure);
  try {
    const pgdata = join(options.dataDir, 'pgdata');
    await initDataDirInChild(pgdata);
    const thread = await PGliteThread.start({
      dataDir: pgdata,
      startParams: PGLITE_START_PARAMS,
      baselineCompiler: options.compiler === 'baseline',
      onExit: onFailure,
    });
    const sweeper = new DataDirSweeper(pgdata);
    sweeper.start(SWEEP_INTERVAL_MS);
    const stopCheckpoints = scheduleCheckpoints(thread, sweeper);
    return pgliteDatabase(thread, {
      beforeClose: stopCheckpoints,
      afterClose: async () => {
        await sweeper.close();
        await release();
      },
    });
  } catch (error) {
    await release();
    throw error;
  }
}

/**
 * Checkpoints the embedded database every WAL_CHECKPOINT_BYTES of WAL (looked at every
 * CHECKPOINT_CHECK_MS), then syncs the data files the checkpoint wrote at once rather than at the
 * next sweep. PGlite never checkpoints while it runs: without this its WAL, and with it the disk
 * used and the replay after a crash, grew for as long as the server ran. Answers how to stop it.
 */
function scheduleCheckpoints(thread: PGliteThread, sweeper: DataDirSweeper): () => void {
  let running: Promise<void> | null = null;
  const timer = setInterval(() => {
    running ??= thread
      .checkpointIfDue(WAL_CHECKPOINT_BYTES)
      .then((done) => (done ? sweeper.sweep() : undefined))
      // Tried again at the next look; the WAL still holds every committed row meanwhile.
      .catch(() => {})
      .finally(() => (running = null));
  }, CHECKPOINT_CHECK_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * A database over a PGlite thread its caller keeps: close() ends this handle's connections but not
 * the thread, then calls `afterClose`. The API tests hand one embedded database to file after file
 * this way (emptied between them) instead of loading the migrated template into a new thread each time.
 */
export function pgliteOnThread(thread: PGliteThread, afterClose: () => Promise<void>): Database {
  return pgliteDatabase(thread, { afterClose, keepThread: true });
}

/** The pool's connections to PGlite share its one session (pglite-worker.js) and live as long as the process. */
function pgliteDatabase(
  thread: PGliteThread,
  {
    beforeClose,
    afterClose,
    keepThread = false,
  }: { beforeClose?: () => void; afterClose?: () => Promise<void>; keepThread?: boolean },
): Database {
  // PGlite's own role and database: PostgreSQL's defaults would name the OS user, which PGlite
  // answers by stopping for good.
  const pool = new pg.Pool({
    max: PGLITE_CONNECTIONS,
    idleTimeoutMillis: 0,
    user: 'postgres',
    database: 'postgres',
    stream: () => thread.connection(),
  });
  return {
    ...poolDatabase('pglite', pool, {
      flush: async () => {
        await thread.flush();
      },
      close: async () => {
        beforeClose?.();
        await pool.end();
        if (!keepThread) await thread.close();
        await afterClose?.();
      },
    }),
    dumpDataDir: () => thread.dumpDataDir(),
  };
}

/** Any number that no other advisory lock of ours uses: the migrations' turn. */
const MIGRATION_LOCK = 7_202_611;

/**
 * Runs the migrations holding a session-level advisory lock, so instances started together on one
 * PostgreSQL take turns: the first applies what is new, the others wait, then find nothing to do.
 */
async function migrateLocked(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      await migratePg(drizzlePg({ client, schema }), { migrationsFolder });
    } finally {
      await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } finally {
    client.release();
  }
}

function poolDatabase(kind: Database['kind'], pool: pg.Pool, ends: Pick<Database, 'flush' | 'close'>): Database {
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  const db = drizzlePg({ client: pool, schema }) as unknown as Db;
  return {
    db,
    kind,
    migrate: () => migrateLocked(pool),
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    executeSql: async (text, values) => {
      // A script of several statements answers one result per statement: the last is the answer.
      const result = (await pool.query(text, values)) as pg.QueryResult | pg.QueryResult[];
      return Array.isArray(result) ? (result[result.length - 1] ?? { rows: [] }) : result;
    },
    poolUse: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    connect: () => pool.connect(),
    ...ends,
  };
}
