// Opens the database the config asks for: embedded PGlite in DATA_DIR (default) or PostgreSQL
// through a node-postgres pool when DATABASE_URL is set. Both run the same migrations and the
// same Drizzle queries; callers see one `Database` handle.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema';
import { lockDataDir } from './data-dir-lock';
import { WalSyncer } from './durability';
import { initDataDirInChild, PGLITE_START_PARAMS } from './pglite-setup';

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
  /** PGlite only: the whole data dir as a tarball (tests clone a migrated database from it). */
  dumpDataDir?(): Promise<Uint8Array>;
}

export const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));
const SWEEP_INTERVAL_MS = 5_000;
/** Trigram indexes make the admin's search by part of a name an index lookup (migration 0006). */
const PGLITE_EXTENSIONS = { pg_trgm };

export type DatabaseOptions =
  | { kind: 'pglite'; dataDir: string; onLockLost?: (error: Error) => void }
  /** In-memory PGlite, optionally cloned from a dumped data dir (tests). */
  | { kind: 'pglite-memory'; loadDataDir?: Blob }
  | { kind: 'postgres'; url: string; poolSize?: number };

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.kind === 'postgres') return openPostgres(options.url, options.poolSize ?? 10);
  if (options.kind === 'pglite-memory') {
    const client = await PGlite.create({ loadDataDir: options.loadDataDir, extensions: PGLITE_EXTENSIONS, startParams: PGLITE_START_PARAMS });
    return pgliteDatabase(client, null, async () => {});
  }
  const release = await lockDataDir(
    options.dataDir,
    options.onLockLost ??
      ((error) => {
        throw error;
      }),
  );
  try {
    const pgdata = join(options.dataDir, 'pgdata');
    await initDataDirInChild(pgdata);
    const client = await PGlite.create({ dataDir: pgdata, extensions: PGLITE_EXTENSIONS, startParams: PGLITE_START_PARAMS });
    const syncer = new WalSyncer(pgdata);
    syncer.startBackgroundSweep(SWEEP_INTERVAL_MS);
    return pgliteDatabase(client, syncer, release);
  } catch (error) {
    await release();
    throw error;
  }
}

function pgliteDatabase(client: PGlite, syncer: WalSyncer | null, release: () => Promise<void>): Database {
  const db = drizzlePglite({ client, schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    migrate: () => migratePglite(drizzlePglite({ client, schema }), { migrationsFolder }),
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    flush: () => syncer?.flush() ?? Promise.resolve(),
    executeSql: async (text, values) => {
      if (values && values.length > 0) return client.query(text, values);
      const results = await client.exec(text);
      return results[results.length - 1] ?? { rows: [] };
    },
    dumpDataDir: async () => new Uint8Array(await (await client.dumpDataDir('none')).arrayBuffer()),
    close: async () => {
      await client.close();
      await syncer?.close();
      await release();
    },
  };
}

function openPostgres(url: string, poolSize: number): Database {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  const db = drizzlePg({ client: pool, schema }) as unknown as Db;
  return {
    db,
    kind: 'postgres',
    migrate: () => migratePg(drizzlePg({ client: pool, schema }), { migrationsFolder }),
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    flush: () => Promise.resolve(),
    executeSql: (text, values) => pool.query(text, values),
    close: () => pool.end(),
  };
}
