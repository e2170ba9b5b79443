// The operator's commands and the migration history: which migration a database last applied (its
// number in server/db/migrations/meta/_journal.json), and applying migrations up to a given number
// inside the caller's transaction, recorded in drizzle.__drizzle_migrations exactly as Drizzle's
// migrator records them, so the server's own migrate() at start-up carries on from there.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import type pg from 'pg';
import { migrationsFolder } from '@server/db/client';
import { OpsError } from './ops-error';

export interface Migration {
  /** The journal's idx: 27 for 0027_turn_costs. */
  number: number;
  tag: string;
  /** Drizzle's created_at for it (the journal's `when`). */
  when: number;
  hash: string;
  statements: string[];
}

let cached: Migration[] | undefined;

/** This code's migrations, in order. */
export function knownMigrations(): Migration[] {
  if (cached) return cached;
  const journal = JSON.parse(readFileSync(join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as {
    entries: Array<{ idx: number; tag: string; when: number }>;
  };
  const files = readMigrationFiles({ migrationsFolder });
  cached = journal.entries.map((entry, i) => ({
    number: entry.idx,
    tag: entry.tag,
    when: entry.when,
    hash: files[i].hash,
    statements: files[i].sql,
  }));
  return cached;
}

export const latestMigration = (): Migration => knownMigrations()[knownMigrations().length - 1];

/**
 * The last migration the database applied: null for a database without Drizzle's table (never
 * migrated). A database migrated by a newer Taleweaver, whose last migration this code does not
 * know, is refused.
 */
export async function appliedMigration(client: pg.ClientBase): Promise<Migration | null> {
  const { rows: tables } = await client.query(
    `select to_regclass('drizzle.__drizzle_migrations') is not null as "has"`,
  );
  if (!tables[0].has) return null;
  const { rows } = await client.query<{ created_at: string }>(
    'select created_at::text as created_at from drizzle.__drizzle_migrations order by created_at desc limit 1',
  );
  if (rows.length === 0) return null;
  const found = knownMigrations().find((m) => String(m.when) === rows[0].created_at);
  if (!found)
    throw new OpsError(
      `The database was migrated by a newer Taleweaver (a migration this version does not know); use that version.`,
    );
  return found;
}

/** Applies this code's migrations after `from` (null: all) up to `to`, in the caller's transaction. */
export async function applyMigrations(client: pg.ClientBase, from: number | null, to: number): Promise<void> {
  await client.query('CREATE SCHEMA IF NOT EXISTS drizzle');
  await client.query(
    'CREATE TABLE IF NOT EXISTS drizzle.__drizzle_migrations (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at bigint)',
  );
  for (const migration of knownMigrations()) {
    if ((from !== null && migration.number <= from) || migration.number > to) continue;
    for (const statement of migration.statements) await client.query(statement);
    await client.query('insert into drizzle.__drizzle_migrations ("hash", "created_at") values ($1, $2)', [
      migration.hash,
      migration.when,
    ]);
  }
}
