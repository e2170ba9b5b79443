// The one logical format of backup, restore and the move to PostgreSQL, and its reading side.
// A backup is gzip'd NDJSON:
//   {"format":"taleweaver-backup","version":1,"migration":28,"migrationTag":"0028_…",…}   header
//   {"table":"users","columns":["id","username",…]}                                        per table
//   ["1","alice",null,…]                                                                   its rows
//   {"end":true,"tables":31,"rows":1234,"sha256":"…"}                                      trailer
// Every value is PostgreSQL's own text form of it (null stays null), read and written back through
// the column's type: bytea (hex), jsonb, timestamptz (UTC, microseconds) and float4 (shortest exact
// digits) round-trip exactly, whatever the type. The trailer's sha256 covers every byte before it,
// so a truncated or altered file is refused before anything is written.
// Tables: every table of the `public` schema, read from the catalog (a new table is never left
// out), all in one REPEATABLE READ snapshot, streamed through a cursor (memory stays bounded).
// Sessions are kept: players stay signed in after a restore. Not copied: Drizzle's migration table
// (the restore target is migrated to the backup's level instead) and pg-boss's schema `pgboss`
// (the job queue). A picture queued or being painted is a `scene_images` row still 'pending'; the
// restored server's orphan sweep (domains/images) queues every pending picture without a job again.
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import type pg from 'pg';
import { appliedMigration } from './migrations';
import { OpsError } from './ops-error';

export const BACKUP_FORMAT = 'taleweaver-backup';
export const BACKUP_VERSION = 1;
/** Owner read and write only. */
export const BACKUP_FILE_MODE = 0o600;

export interface BackupHeader {
  format: typeof BACKUP_FORMAT;
  version: number;
  migration: number;
  migrationTag: string;
  createdAt: string;
  database: 'pglite' | 'postgres';
}
export interface TableLine {
  table: string;
  columns: string[];
}
export interface Trailer {
  end: true;
  tables: number;
  rows: number;
  sha256: string;
}
export type Row = Array<string | null>;

/** Every value as PostgreSQL's text, whatever its type. */
const RAW_TEXT = { getTypeParser: () => (value: string) => value } as unknown as pg.CustomTypesConfig;
const ROWS_PER_FETCH = 500;
/** Pictures are up to a few MB a row: fewer at a time keeps memory bounded. */
const BYTEA_ROWS_PER_FETCH = 8;

export const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The session settings both ends read and write values under, so text forms are canonical. */
export const TEXT_FORM_SETTINGS = [
  "SET LOCAL TimeZone = 'UTC'",
  "SET LOCAL DateStyle = 'ISO, YMD'",
  "SET LOCAL IntervalStyle = 'postgres'",
  "SET LOCAL bytea_output = 'hex'",
  'SET LOCAL extra_float_digits = 1',
];

export interface TableInfo {
  name: string;
  columns: string[];
  hasBytea: boolean;
}

/** The app's tables, from the catalog: every ordinary table of `public`, its stored columns in order. */
export async function appTables(client: pg.ClientBase): Promise<TableInfo[]> {
  const { rows } = await client.query<{ name: string; columns: string[]; has_bytea: boolean }>(`
    select c.relname as name,
           array_agg(a.attname::text order by a.attnum) as columns,
           bool_or(a.atttypid = 'bytea'::regtype) as has_bytea
    from pg_class c
    join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
    where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p') and not c.relispartition
    group by c.relname
    order by c.relname`);
  return rows.map((row) => ({ name: row.name, columns: row.columns, hasBytea: row.has_bytea }));
}

/**
 * Streams the database as backup lines (no newline), header to trailer, from one read-only
 * REPEATABLE READ transaction on `client`: the snapshot is consistent while servers keep writing.
 * `onTable` learns each table's row count as it is finished.
 */
export async function* snapshotLines(
  client: pg.ClientBase,
  database: BackupHeader['database'],
  onTable?: (table: string, rows: number) => void,
): AsyncGenerator<string> {
  const hash = createHash('sha256');
  const line = (text: string) => {
    hash.update(`${text}\n`);
    return text;
  };
  await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
  try {
    for (const setting of TEXT_FORM_SETTINGS) await client.query(setting);
    const migration = await appliedMigration(client);
    if (!migration) throw new OpsError('The database has never been migrated: there is nothing to back up.');
    const header: BackupHeader = {
      format: BACKUP_FORMAT,
      version: BACKUP_VERSION,
      migration: migration.number,
      migrationTag: migration.tag,
      createdAt: new Date().toISOString(),
      database,
    };
    yield line(JSON.stringify(header));
    const tables = await appTables(client);
    let total = 0;
    for (const table of tables) {
      yield line(JSON.stringify({ table: table.name, columns: table.columns } satisfies TableLine));
      const select = `select ${table.columns.map(quoteIdent).join(', ')} from ${quoteIdent(table.name)}`;
      await client.query(`DECLARE backup_rows NO SCROLL CURSOR FOR ${select}`);
      const fetch = `FETCH ${table.hasBytea ? BYTEA_ROWS_PER_FETCH : ROWS_PER_FETCH} FROM backup_rows`;
      let count = 0;
      for (;;) {
        const { rows } = await client.query<Row>({ text: fetch, rowMode: 'array', types: RAW_TEXT });
        if (rows.length === 0) break;
        for (const row of rows) yield line(JSON.stringify(row));
        count += rows.length;
      }
      await client.query('CLOSE backup_rows');
      onTable?.(table.name, count);
      total += count;
    }
    const trailer: Trailer = { end: true, tables: tables.length, rows: total, sha256: hash.digest('hex') };
    yield JSON.stringify(trailer);
  } finally {
    await client.query('ROLLBACK').catch(() => {});
  }
}

/**
 * Writes backup lines to `path`, gzip'd: first to `<path>.partial`, renamed once whole, so a
 * failed backup never leaves a file that looks like one.
 */
export async function writeBackupFile(path: string, lines: AsyncIterable<string>): Promise<void> {
  const partial = `${path}.partial`;
  async function* withNewlines() {
    for await (const text of lines) yield `${text}\n`;
  }
  try {
    // Readable by its owner alone: a backup holds password hashes, emails, session hashes and share
    // secrets. The mode applies when the file is made, so a partial left by a crash is removed first.
    await rm(partial, { force: true });
    await pipeline(
      Readable.from(withNewlines()),
      createGzip(),
      createWriteStream(partial, { flags: 'wx', mode: BACKUP_FILE_MODE }),
    );
    const handle = await open(partial, 'r');
    await handle.sync();
    await handle.close();
    await rename(partial, path);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
}

/** The lines of a backup file (no newline), refusing a file that is missing, not gzip or damaged. */
export async function* backupFileLines(path: string): AsyncGenerator<string> {
  let first: Buffer;
  try {
    const handle = await open(path, 'r');
    first = Buffer.alloc(2);
    await handle.read(first, 0, 2, 0);
    await handle.close();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new OpsError(`No backup file at ${path}.`);
    throw new OpsError(`Cannot read ${path}: ${(error as Error).message}`);
  }
  if (first[0] !== 0x1f || first[1] !== 0x8b)
    throw new OpsError(`${path} is not a Taleweaver backup (not a gzip file).`);
  const gunzip = createGunzip();
  const lines = createInterface({ input: createReadStream(path).pipe(gunzip), crlfDelay: Infinity });
  const failed = new Promise<never>((_, reject) => gunzip.once('error', reject));
  failed.catch(() => {});
  try {
    const iterator = lines[Symbol.asyncIterator]();
    for (;;) {
      const next = await Promise.race([iterator.next(), failed]);
      if (next.done) break;
      yield next.value;
    }
    // A gzip stream cut short may end the lines without an error event first.
    await Promise.race([new Promise((resolve) => setImmediate(resolve)), failed]);
  } catch (error) {
    if (error instanceof OpsError) throw error;
    throw new OpsError(`${path} is damaged or truncated (${(error as Error).message}); it cannot be restored.`);
  } finally {
    lines.close();
  }
}

/** Parses the header line, refusing a file of another kind or a newer format. */
export function parseHeader(text: string | undefined, where: string): BackupHeader {
  let header: Partial<BackupHeader> | null = null;
  try {
    header = text === undefined ? null : (JSON.parse(text) as Partial<BackupHeader>);
  } catch {
    header = null;
  }
  if (!header || header.format !== BACKUP_FORMAT || typeof header.migration !== 'number')
    throw new OpsError(`${where} is not a Taleweaver backup (its first line is not a backup header).`);
  if (header.version !== BACKUP_VERSION)
    throw new OpsError(
      `${where} is a backup of format ${header.version}; this Taleweaver reads format ${BACKUP_VERSION}.`,
    );
  return header as BackupHeader;
}

export interface VerifiedBackup {
  header: BackupHeader;
  /** Rows per table, in file order. */
  counts: Map<string, number>;
}

/**
 * Checks a stream of backup lines whole: header first, tables and rows, then a trailer whose sha256
 * matches every byte before it and that is the last line. Throws OpsError naming what is wrong.
 */
export async function verifyLines(lines: AsyncIterable<string>, where: string): Promise<VerifiedBackup> {
  const hash = createHash('sha256');
  const counts = new Map<string, number>();
  let header: BackupHeader | null = null;
  let table: string | null = null;
  let trailer: Trailer | null = null;
  for await (const text of lines) {
    if (trailer) throw new OpsError(`${where} has lines after its end: it is not a backup this tool wrote.`);
    if (!header) {
      header = parseHeader(text, where);
    } else if (text.startsWith('[')) {
      if (table === null) throw new OpsError(`${where} is damaged: rows before any table.`);
      counts.set(table, (counts.get(table) ?? 0) + 1);
    } else {
      const parsed = safeJson(text) as Partial<TableLine & Trailer> | null;
      if (parsed?.end === true) {
        trailer = parsed as Trailer;
        continue;
      }
      if (typeof parsed?.table !== 'string' || !Array.isArray(parsed.columns))
        throw new OpsError(`${where} is damaged: a line is neither a table nor a row.`);
      table = parsed.table;
      counts.set(table, 0);
    }
    hash.update(`${text}\n`);
  }
  if (!header) throw new OpsError(`${where} is empty: it is not a Taleweaver backup.`);
  if (!trailer) throw new OpsError(`${where} is truncated (it has no end line); it cannot be restored.`);
  if (trailer.sha256 !== hash.digest('hex'))
    throw new OpsError(`${where} is damaged: its checksum does not match its content; it cannot be restored.`);
  return { header, counts };
}

export function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
