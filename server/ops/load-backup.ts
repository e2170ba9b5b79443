// The writing side of the logical backup format (logical-backup.ts): loads a stream of backup lines
// into a database in ONE transaction, so a failure, a refusal or a damaged stream leaves the target
// as it was. Within it:
//   1. the target must be empty (no row in any table of `public`) unless `replace` is given; whatever
//      schema it has (tables, functions of `public`, Drizzle's and pg-boss's schemas) is dropped;
//   2. migrations run up to the backup's own migration, so its rows meet the schema they came from;
//   3. foreign keys are dropped and user triggers disabled (rollups such as the usage ledger's would
//      otherwise count every loaded row again), the rows are inserted, the keys added back (which
//      checks every row) and the triggers enabled; each serial/identity sequence is set to its column's max;
//   4. the migrations after the backup's run, as they would have on the source;
//   5. every table's row count is checked against the source's, and the trailer's checksum against
//      the stream, before COMMIT.
// A backup made by a newer Taleweaver (a migration this code does not know) is refused.
import { createHash } from 'node:crypto';
import type pg from 'pg';
import {
  appTables,
  parseHeader,
  quoteIdent,
  safeJson,
  TEXT_FORM_SETTINGS,
  type Row,
  type TableLine,
  type Trailer,
} from './logical-backup';
import { applyMigrations, knownMigrations, latestMigration } from './migrations';
import { OpsError } from './ops-error';

export interface LoadOptions {
  /** Replace a target that holds rows (restore --force); without it such a target is refused. */
  replace: boolean;
  /** Rows per table the source holds; checked against the target's counts before COMMIT. */
  expected: (table: string) => Promise<number> | number;
  /** What the refusal of a target holding rows advises (restore: pass --force). */
  notEmptyAdvice: string;
  /** Told each table's source and target count (the move prints them). */
  onCount?: (table: string, source: number, target: number) => void;
  where: string;
}

/** Most parameters in one INSERT (PostgreSQL's limit is 65,535) and most bytes of values in one. */
const MAX_PARAMS = 30_000;
const MAX_BATCH_BYTES = 8 * 1024 * 1024;

/** Tables of `public` that hold at least one row (the target must have none unless replaced). */
async function tablesWithRows(client: pg.ClientBase): Promise<string[]> {
  const found: string[] = [];
  for (const table of await appTables(client)) {
    const { rows } = await client.query(`select exists (select 1 from ${quoteIdent(table.name)}) as "any"`);
    if (rows[0].any) found.push(table.name);
  }
  return found;
}

/** Drops the app's schema objects: tables and own functions of `public`, and the drizzle and pgboss schemas. */
async function dropSchema(client: pg.ClientBase): Promise<void> {
  for (const table of await appTables(client))
    await client.query(`DROP TABLE IF EXISTS ${quoteIdent(table.name)} CASCADE`);
  const { rows } = await client.query<{ routine: string }>(`
    select p.oid::regprocedure::text as routine from pg_proc p
    where p.pronamespace = 'public'::regnamespace
      and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')`);
  for (const { routine } of rows) await client.query(`DROP ROUTINE IF EXISTS ${routine} CASCADE`);
  await client.query('DROP SCHEMA IF EXISTS drizzle CASCADE');
  await client.query('DROP SCHEMA IF EXISTS pgboss CASCADE');
}

async function foreignKeys(client: pg.ClientBase): Promise<Array<{ table: string; name: string; definition: string }>> {
  const { rows } = await client.query<{ table: string; name: string; definition: string }>(`
    select c.relname as "table", k.conname as name, pg_get_constraintdef(k.oid) as definition
    from pg_constraint k join pg_class c on c.oid = k.conrelid
    where k.contype = 'f' and c.relnamespace = 'public'::regnamespace
    order by c.relname, k.conname`);
  return rows;
}

/** Sets each sequence owned by a column of `public` (serial, identity) to that column's max. */
async function setSequences(client: pg.ClientBase): Promise<void> {
  const { rows } = await client.query<{ sequence: string; table: string; column: string }>(`
    select s.oid::regclass::text as sequence, t.relname as "table", a.attname as "column"
    from pg_class s
    join pg_depend d on d.objid = s.oid and d.classid = 'pg_class'::regclass
      and d.refclassid = 'pg_class'::regclass and d.deptype in ('a', 'i')
    join pg_class t on t.oid = d.refobjid
    join pg_attribute a on a.attrelid = t.oid and a.attnum = d.refobjsubid
    where s.relkind = 'S' and s.relnamespace = 'public'::regnamespace`);
  for (const { sequence, table, column } of rows) {
    const col = quoteIdent(column);
    await client.query(
      `select setval($1::regclass, coalesce(max(${col}), 1), max(${col}) is not null) from ${quoteIdent(table)}`,
      [sequence],
    );
  }
}

/** Collects rows into multi-row INSERTs (parameters as text, parsed by each column's own type). */
class TableWriter {
  private batch: Row[] = [];
  private bytes = 0;
  private readonly maxRows: number;
  constructor(
    private readonly client: pg.ClientBase,
    private readonly table: string,
    private readonly columns: string[],
  ) {
    this.maxRows = Math.max(1, Math.floor(MAX_PARAMS / Math.max(columns.length, 1)));
  }

  async add(row: Row, size: number): Promise<void> {
    if (row.length !== this.columns.length)
      throw new OpsError(`A row of ${this.table} has ${row.length} values for ${this.columns.length} columns.`);
    this.batch.push(row);
    this.bytes += size;
    if (this.batch.length >= this.maxRows || this.bytes >= MAX_BATCH_BYTES) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.batch.length === 0) return;
    const width = this.columns.length;
    const tuples = this.batch.map((_, r) => `(${this.columns.map((__, c) => `$${r * width + c + 1}`).join(', ')})`);
    const text =
      `INSERT INTO ${quoteIdent(this.table)} (${this.columns.map(quoteIdent).join(', ')}) ` +
      `OVERRIDING SYSTEM VALUE VALUES ${tuples.join(', ')}`;
    await this.client.query(text, this.batch.flat());
    this.batch = [];
    this.bytes = 0;
  }
}

/**
 * Loads backup lines into the database behind `client` in one transaction (see the file's header).
 * Answers the rows loaded per table.
 */
export async function loadBackup(
  client: pg.ClientBase,
  lines: AsyncIterable<string>,
  options: LoadOptions,
): Promise<Map<string, number>> {
  const iterator = lines[Symbol.asyncIterator]();
  const first = await iterator.next();
  const header = parseHeader(first.done ? undefined : first.value, options.where);
  const known = knownMigrations().find((m) => m.number === header.migration);
  if (header.migration > latestMigration().number || !known)
    throw new OpsError(
      `${options.where} was made by a newer Taleweaver (migration ${header.migration}, ${header.migrationTag}); ` +
        `this one knows up to ${latestMigration().number}: restore it with that version or a later one.`,
    );
  if (known.tag !== header.migrationTag)
    throw new OpsError(
      `${options.where} comes from another migration history (${header.migrationTag} is not ${known.tag}).`,
    );

  const hash = createHash('sha256').update(`${first.value as string}\n`);
  const loaded = new Map<string, number>();
  await client.query('BEGIN');
  try {
    for (const setting of TEXT_FORM_SETTINGS) await client.query(setting);
    const holding = await tablesWithRows(client);
    if (holding.length > 0 && !options.replace)
      throw new OpsError(
        `The target database is not empty (rows in ${holding.slice(0, 5).join(', ')}${holding.length > 5 ? ', …' : ''}); ` +
          options.notEmptyAdvice,
      );
    await dropSchema(client);
    await applyMigrations(client, null, header.migration);

    const tables = new Map((await appTables(client)).map((table) => [table.name, table]));
    const keys = await foreignKeys(client);
    for (const key of keys)
      await client.query(`ALTER TABLE ${quoteIdent(key.table)} DROP CONSTRAINT ${quoteIdent(key.name)}`);
    for (const name of tables.keys()) await client.query(`ALTER TABLE ${quoteIdent(name)} DISABLE TRIGGER USER`);

    let writer: TableWriter | null = null;
    let trailer: Trailer | null = null;
    for (;;) {
      const next = await iterator.next();
      if (next.done) break;
      const text = next.value;
      if (trailer) throw new OpsError(`${options.where} has lines after its end.`);
      if (text.startsWith('[')) {
        if (!writer) throw new OpsError(`${options.where} is damaged: rows before any table.`);
        const row = safeJson(text);
        if (!Array.isArray(row)) throw new OpsError(`${options.where} is damaged: a row does not parse.`);
        await writer.add(row as Row, text.length);
        hash.update(`${text}\n`);
        continue;
      }
      const parsed = safeJson(text) as Partial<TableLine & Trailer> | null;
      if (parsed?.end === true) {
        trailer = parsed as Trailer;
        continue;
      }
      if (typeof parsed?.table !== 'string' || !Array.isArray(parsed.columns))
        throw new OpsError(`${options.where} is damaged: a line is neither a table nor a row.`);
      await writer?.flush();
      const target = tables.get(parsed.table);
      if (!target)
        throw new OpsError(
          `${options.where} has a table ${parsed.table} that migration ${header.migration} does not make.`,
        );
      const missing = parsed.columns.filter((column) => !target.columns.includes(column));
      if (missing.length > 0)
        throw new OpsError(
          `${options.where} has columns ${parsed.table}.${missing.join(', ')} that the schema does not.`,
        );
      writer = new TableWriter(client, parsed.table, parsed.columns);
      loaded.set(parsed.table, 0);
      hash.update(`${text}\n`);
    }
    await writer?.flush();
    if (!trailer) throw new OpsError(`${options.where} ended without its end line: nothing was restored.`);
    if (trailer.sha256 !== hash.digest('hex'))
      throw new OpsError(`${options.where} does not match its checksum: nothing was restored.`);

    for (const key of keys)
      await client.query(
        `ALTER TABLE ${quoteIdent(key.table)} ADD CONSTRAINT ${quoteIdent(key.name)} ${key.definition}`,
      );
    for (const name of tables.keys()) await client.query(`ALTER TABLE ${quoteIdent(name)} ENABLE TRIGGER USER`);
    await setSequences(client);
    // Counted at the backup's level: a later migration may add or move rows.
    for (const name of tables.keys()) {
      const { rows } = await client.query<{ n: string }>(`select count(*)::text as n from ${quoteIdent(name)}`);
      const target = Number(rows[0].n);
      const source = loaded.has(name) ? await options.expected(name) : 0;
      loaded.set(name, target);
      options.onCount?.(name, source, target);
      if (source !== target)
        throw new OpsError(`${name} has ${target} rows after the load, the source ${source}: nothing was written.`);
    }
    await applyMigrations(client, header.migration, latestMigration().number);

    await client.query('COMMIT');
    return loaded;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  }
}
