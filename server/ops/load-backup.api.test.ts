// The backup format's reader and writer in-process, on both databases: values that are easy to
// lose (float4, bytea of every byte, jsonb, timestamps to the microsecond, text with newlines)
// come back exactly, sequences continue past the loaded ids, and a backup taken one migration
// back is loaded at its own level and then migrated up (0028 adds admin_grants).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@server/db/client';
import { dumpTables } from '@server/test/run-op';
import { openEmptyTestDatabase, openTestDatabase } from '@server/test/test-app';
import { loadBackup } from './load-backup';
import { snapshotLines } from './logical-backup';
import { applyMigrations, latestMigration } from './migrations';

const CHARACTERS = [{ name: 'Zoë', face: 'a \\ "quoted" one', hair: '1e400', clothes: '' }];
const EVERY_BYTE = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
let source: Database;
let target: Database;

beforeAll(async () => {
  // The target is a migrated database without rows: its schema is dropped and made again at the backup's level.
  [source, target] = await Promise.all([openEmptyTestDatabase(), openTestDatabase()]);
});
afterAll(() => Promise.all([source.close(), target.close()]));

async function lines(database: Database): Promise<string[]> {
  const client = await database.connect();
  try {
    const out: string[] = [];
    for await (const line of snapshotLines(client, database.kind)) out.push(line);
    return out;
  } finally {
    client.release();
  }
}

async function* from(list: string[]) {
  yield* list;
}

describe('loadBackup', () => {
  it('loads a backup one migration old exactly, then migrates it up', async () => {
    const client = await source.connect();
    try {
      const previous = latestMigration().number - 1;
      await client.query('BEGIN');
      await applyMigrations(client, null, previous);
      await client.query('COMMIT');
      await client.query(`insert into users (username, email, password_hash, is_admin, created_at)
        values ('Ada', 'ada@example.com', '$argon2id$x', true, '2026-01-02 03:04:05.123456+00')`);
      await client.query(
        `insert into stories (user_id, title, premise, temperature) values (1, $1, 'line one\nline two', 0.7)`,
        ['Ümlaut “quotes” \u2028 and a tab\t'],
      );
      await client.query(`insert into image_assets (hash, webp, thumbnail, width, height) values ('h', $1, $1, 1, 1)`, [
        EVERY_BYTE,
      ]);
      await client.query(`insert into usage_events (user_id, story_id, provider, model, input_tokens, output_tokens)
        values (1, 1, 'builtin', 'm', 120, 80), (1, 1, 'builtin', 'm', 30, 20)`);
      await client.query(`insert into story_visuals (story_id, characters, seed) values (1, $1, 7)`, [
        JSON.stringify(CHARACTERS),
      ]);
    } finally {
      client.release();
    }
    const rows = await dumpTables(source);
    const backup = await lines(source);
    expect(JSON.parse(backup[0])).toMatchObject({ migration: latestMigration().number - 1 });

    const writer = await target.connect();
    try {
      await loadBackup(writer, from(backup), {
        replace: false,
        expected: async (table) => rows[table]?.length ?? 0,
        notEmptyAdvice: '',
        where: 'test',
      });
    } finally {
      writer.release();
    }
    const one = async (text: string) => (await target.executeSql(text)).rows[0] as Record<string, unknown>;
    expect(
      await one(`select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS.US') as t from users`),
    ).toEqual({
      t: '2026-01-02 03:04:05.123456',
    });
    expect(await one(`select temperature = 0.7::real as same, title, premise from stories`)).toEqual({
      same: true,
      title: 'Ümlaut “quotes” \u2028 and a tab\t',
      premise: 'line one\nline two',
    });
    expect(((await one(`select webp from image_assets`)).webp as Buffer).equals(EVERY_BYTE)).toBe(true);
    expect(await one(`select characters from story_visuals`)).toEqual({
      characters: CHARACTERS,
    });
    // Migrated up after the load: 0028's table is there, and the old admin still one (by the list).
    expect(
      await one(`select to_regclass('admin_grants') is not null as made, bool_and(is_admin) as admin from users`),
    ).toEqual({
      made: true,
      admin: true,
    });
    // The rollups came from the backup, not counted by their triggers a second time: they are the
    // source's, once the source is migrated up the same way (the last migration may add a column).
    const migratedSource = await source.connect();
    try {
      await applyMigrations(migratedSource, latestMigration().number - 1, latestMigration().number);
    } finally {
      migratedSource.release();
    }
    const [loaded, sourceNow] = await Promise.all([dumpTables(target), dumpTables(source)]);
    for (const table of ['user_stats', 'usage_daily', 'user_usage_monthly', 'usage_events'])
      expect(loaded[table], table).toEqual(sourceNow[table]);
    expect(loaded.usage_daily.length).toBeGreaterThan(0);
    // Sequences continue after the loaded ids.
    expect(await one(`insert into users (username, password_hash) values ('next', 'x') returning id`)).toEqual({
      id: 2,
    });
  });

  it('refuses a target holding rows without replace, and a backup from a newer Taleweaver', async () => {
    const backup = await lines(source);
    const writer = await target.connect();
    try {
      const options = { replace: false, expected: () => 0, notEmptyAdvice: 'pass --force.', where: 'test' };
      await expect(loadBackup(writer, from(backup), options)).rejects.toThrow(
        /^The target database is not empty \(rows in .+\); pass --force\.$/,
      );
      const newer = JSON.stringify({ ...JSON.parse(backup[0]), migration: 999, migrationTag: '0999_future' });
      await expect(loadBackup(writer, from([newer, ...backup.slice(1)]), options)).rejects.toThrow(
        /was made by a newer Taleweaver \(migration 999/,
      );
    } finally {
      writer.release();
    }
    expect((await target.executeSql('select count(*)::int as n from users')).rows[0]).toEqual({ n: 2 });
  });
});
