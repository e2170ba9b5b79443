// The move from the embedded database to PostgreSQL, run as the operator runs it: everything made
// through the real API in a data dir lands in an empty PostgreSQL database (a throwaway one made
// here), table counts printed and equal, and a server on it signs the player in; a non-empty target
// is refused and left as it was. And a backup of PostgreSQL taken while a server runs on it restores
// into a fresh data dir whole. Runs in the PostgreSQL project only (TEST_DATABASE_URL).
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '@server/db/client';
import { settlePicture } from '@server/test/fake-painter';
import { databaseUrlFor } from '@server/test/global-setup';
import { dumpTables, runOp } from '@server/test/run-op';
import { seededDataDir } from '@server/test/spawn-server';
import { createPaintingTestApp, createTestApp, registerUser, TestClient } from '@server/test/test-app';

// The local PostgreSQL the suite moves into (.ci/run sets it); without it the suite is skipped.
const POSTGRES_URL = process.env.TEST_DATABASE_URL ?? '';
const PASSWORD = 'correct horse battery staple';
const name = `tw_move_${randomBytes(4).toString('hex')}`;
let dir: string;
let dataDir: string;
let url: string;
let username: string;
let sourceDump: Record<string, string[]>;

async function onServer(query: string) {
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  try {
    await admin.query(query);
  } finally {
    await admin.end();
  }
}

async function dumpOf(target: string) {
  const database = await openDatabase({ kind: 'postgres', url: target, poolSize: 1 });
  try {
    return await dumpTables(database);
  } finally {
    await database.close();
  }
}

describe.skipIf(!POSTGRES_URL)('npm run db:move-to-postgres', { timeout: 120_000 }, () => {
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tw-move-'));
    // As a server's first start leaves it (migrated), copied rather than made again.
    dataDir = await seededDataDir('tw-move-data-');
    url = databaseUrlFor(POSTGRES_URL, name);
    const database = await openDatabase({ kind: 'pglite', dataDir });
    await database.migrate();
    const ctx = await createPaintingTestApp({}, { database });
    try {
      const user = await registerUser(ctx.app, { password: PASSWORD });
      username = user.username;
      await user.client.post('/api/preferences', { imageGeneration: true });
      const start = (await user.client.post('/api/story/start', { prompt: 'A lighthouse keeper' })).json();
      const next = (
        await user.client.post(`/api/story/${start.storyId}/continue`, { message: 'I climb the stairs' })
      ).json();
      // Both replies' pictures painted before the dump: one still painting was stored after it.
      expect((await settlePicture(user.client, start.messageId)).statusCode).toBe(200);
      expect((await settlePicture(user.client, next.messageId)).statusCode).toBe(200);
      await user.client.post(`/api/story/${start.storyId}/cards`, { name: 'Lamp', keys: ['lamp'], content: 'Old.' });
      await user.client.post('/api/bookmarks', { storyId: start.storyId, lastMessageId: start.messageId, title: 'Up' });
      sourceDump = await dumpTables(ctx.database);
    } finally {
      await ctx.close();
    }
    await onServer(`CREATE DATABASE "${name}"`);
  });
  afterAll(async () => {
    await onServer(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await rm(dir, { recursive: true, force: true });
    await rm(dataDir, { recursive: true, force: true });
  });

  it('copies everything into an empty database, counts agreeing, and refuses a non-empty one', async () => {
    // A URL on the command line (where ps shows its password) is refused before anything is read.
    const onCommandLine = await runOp('move-to-postgres', [url], { DATA_DIR: dataDir, DATABASE_URL: url });
    expect(onCommandLine.code).toBe(1);
    expect(onCommandLine.output).toMatch(/^The database URL is read from DATABASE_URL, not from the command line/);
    expect(onCommandLine.output).not.toContain(url);
    expect(await dumpOf(url)).toEqual({});

    const moved = await runOp('move-to-postgres', [], { DATA_DIR: dataDir, DATABASE_URL: url });
    expect(moved.code, moved.output).toBe(0);
    expect(moved.output).toMatch(/^users\s+1\s+1$/m);
    expect(moved.output).toMatch(/^image_assets\s+([1-9]\d*)\s+\1$/m);
    expect(moved.output).toMatch(/Moved \d+ rows in \d+ tables/);
    expect(await dumpOf(url)).toEqual(sourceDump);

    const again = await runOp('move-to-postgres', [], { DATA_DIR: dataDir, DATABASE_URL: url });
    expect(again.code).toBe(1);
    expect(again.output.trim()).toMatch(/^The target database is not empty .*the move needs an empty database\.$/);
    expect(await dumpOf(url)).toEqual(sourceDump);
  });

  it('backs up PostgreSQL while a server runs on it, and that backup restores whole', async () => {
    const ctx = await createTestApp({}, { database: await openDatabase({ kind: 'postgres', url, poolSize: 2 }) });
    try {
      const client = new TestClient(ctx.app);
      const login = await client.post('/api/login', { username, password: PASSWORD });
      expect(login.statusCode, login.body).toBe(200);
      const running = await dumpTables(ctx.database);
      const file = join(dir, 'pg.backup.gz');
      const made = await runOp('backup', [file], { DATABASE_URL: url });
      expect(made.code, made.output).toBe(0);
      const restoredDir = join(dir, 'restored');
      const restored = await runOp('restore', [file], { DATA_DIR: restoredDir });
      expect(restored.code, restored.output).toBe(0);
      const database = await openDatabase({ kind: 'pglite', dataDir: restoredDir });
      try {
        expect(await dumpTables(database)).toEqual(running);
      } finally {
        await database.close();
      }
    } finally {
      await ctx.close();
    }
  });
});
