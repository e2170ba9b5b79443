// Backup and restore on the embedded database, run as the operator runs them (processes of their
// own): data made through the real API (players, a turn, a picture, a card, a bookmark, a share,
// the ledger and its rollups) comes back whole in a fresh data dir, where the server signs the same
// players in and carries on; a damaged or altered file and a non-empty target are refused, and a
// refused or failed restore leaves the target as it was; a backup refuses while
// another process holds DATA_DIR. Files of the embedded database only: the PostgreSQL side is in
// move-to-postgres.process.test.ts.
import { createHash } from 'node:crypto';
import { chmod, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '@server/db/client';
import { settlePicture } from '@server/test/fake-painter';
import { dumpTables, runOp } from '@server/test/run-op';
import { seededDataDir } from '@server/test/spawn-server';
import { createPaintingTestApp, createTestApp, registerUser, TestClient } from '@server/test/test-app';

const PASSWORD = 'correct horse battery staple';
let dir: string;
let sourceDir: string;
let targetDir: string;
let backup: string;
let sourceDump: Record<string, string[]>;
/** The target as the first test leaves it (restored, then played on). */
let targetDump: Record<string, string[]>;
let lockRefusal: Awaited<ReturnType<typeof runOp>>;
let player: { username: string; cookie: string; storyId: number; messageId: number };

const openDir = async (dataDir: string): Promise<Database> => {
  const database = await openDatabase({ kind: 'pglite', dataDir });
  await database.migrate();
  return database;
};

async function dumpOf(dataDir: string) {
  const database = await openDir(dataDir);
  try {
    return await dumpTables(database);
  } finally {
    await database.close();
  }
}

/** The backup's lines, changed by `edit`, with the trailer's checksum made right again or not. */
async function rewritten(edit: (lines: string[]) => string[], fixChecksum: boolean): Promise<string> {
  const lines = gunzipSync(await readFile(backup))
    .toString('utf8')
    .trimEnd()
    .split('\n');
  const body = edit(lines.slice(0, -1));
  const trailer = JSON.parse(lines[lines.length - 1]);
  if (fixChecksum)
    trailer.sha256 = createHash('sha256')
      .update(body.map((l) => `${l}\n`).join(''))
      .digest('hex');
  const path = join(dir, `edited-${Math.random().toString(36).slice(2)}.gz`);
  await writeFile(path, gzipSync(`${[...body, JSON.stringify(trailer)].join('\n')}\n`));
  return path;
}

describe('backup and restore (embedded database)', { timeout: 120_000 }, () => {
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tw-backup-'));
    // The source as a server's first start leaves it (migrated), copied rather than made again;
    // the target is made by the restore itself.
    sourceDir = await seededDataDir('tw-backup-source-');
    targetDir = join(dir, 'target');
    backup = join(dir, 'taleweaver.backup.gz');
    const ctx = await createPaintingTestApp({}, { database: await openDir(sourceDir) });
    try {
      const user = await registerUser(ctx.app, { password: PASSWORD });
      const { client } = user;
      await client.post('/api/preferences', { imageGeneration: true, contentRating: 'mature' });
      const start = (await client.post('/api/story/start', { prompt: 'A night ferry to a drowned village' })).json();
      const turn = await client.post(`/api/story/${start.storyId}/continue`, { message: 'I board the ferry' });
      expect(turn.statusCode, turn.body).toBe(200);
      expect((await settlePicture(client, start.messageId)).statusCode).toBe(200);
      await client.post(`/api/story/${start.storyId}/cards`, { name: 'Ferryman', keys: ['ferryman'], content: 'Old.' });
      await client.post('/api/bookmarks', {
        storyId: start.storyId,
        lastMessageId: start.messageId,
        title: 'Crossing',
      });
      await client.post(`/api/story/${start.storyId}/share`, { title: 'The Ferry' });
      await registerUser(ctx.app);
      player = {
        username: user.username,
        cookie: client.cookies.get('tw_session')!,
        storyId: start.storyId,
        messageId: start.messageId,
      };
      sourceDump = await dumpTables(ctx.database);
      // This process holds DATA_DIR: a backup must refuse (the last test reads the answer).
      lockRefusal = await runOp('backup', [join(dir, 'refused.gz')], { DATA_DIR: sourceDir });
    } finally {
      await ctx.close();
    }
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
    await rm(sourceDir, { recursive: true, force: true });
  });

  it('backs up, restores into a fresh data dir, and the server finds everything there', async () => {
    for (const table of ['users', 'sessions', 'stories', 'story_messages', 'scene_images', 'image_assets'])
      expect(sourceDump[table].length, table).toBeGreaterThan(0);
    for (const table of ['story_cards', 'bookmarks', 'shared_stories', 'usage_events', 'usage_daily', 'user_stats'])
      expect(sourceDump[table].length, table).toBeGreaterThan(0);

    const made = await runOp('backup', [backup], { DATA_DIR: sourceDir });
    expect(made.output).toMatch(/^Backed up \d+ rows in \d+ tables/);
    expect(made.code).toBe(0);
    // It holds password hashes, emails and sessions: its owner's alone.
    expect((await stat(backup)).mode & 0o777).toBe(0o600);
    const restored = await runOp('restore', [backup], { DATA_DIR: targetDir });
    expect(restored.output).toMatch(/^Restored \d+ rows/);
    expect(restored.output).not.toContain('Warning');
    expect(restored.code).toBe(0);

    const database = await openDir(targetDir);
    // Every table, every row, every value: no rollup counted twice, bytes and times exact.
    expect(await dumpTables(database)).toEqual(sourceDump);
    const ctx = await createTestApp({}, { database });
    try {
      // Kept sessions: the player is still signed in; and the same password signs in.
      const kept = new TestClient(ctx.app);
      kept.cookies.set('tw_session', player.cookie);
      expect((await kept.get('/api/user')).json()).toMatchObject({ username: player.username });
      const fresh = new TestClient(ctx.app);
      const login = await fresh.post('/api/login', { username: player.username, password: PASSWORD });
      expect(login.statusCode, login.body).toBe(200);
      const story = await fresh.get(`/api/story/${player.storyId}/current-state`);
      expect(story.statusCode).toBe(200);
      expect(story.body).toContain('I board the ferry');
      expect((await fresh.get(`/api/story/message/${player.messageId}/image`)).statusCode).toBe(200);
      // The sequences were set past the restored ids: new rows do not collide.
      await registerUser(ctx.app);
      const turn = await fresh.post(`/api/story/${player.storyId}/continue`, { message: 'I pay the ferryman' });
      expect(turn.statusCode, turn.body).toBe(200);
    } finally {
      await ctx.close();
    }
    // After the close: a picture the turn asked for may be painted until then.
    targetDump = await dumpOf(targetDir);
  });

  it('refuses a missing or damaged file and a non-empty target, leaving it as it was', async () => {
    // Every kind of bad file is in logical-backup.test.ts; here, that the command says so and exits 1.
    const bytes = await readFile(backup);
    const flipped = Buffer.from(bytes);
    flipped[Math.floor(bytes.length / 2)] ^= 0xff;
    await writeFile(join(dir, 'flipped.gz'), flipped);
    const altered = await rewritten((lines) => lines.map(alterUsername), false);
    // The bad files are refused before the database is opened, so all four can run side by side.
    const cases: Array<[string[], RegExp]> = [
      [[join(dir, 'missing.gz'), '--force'], /^No backup file at /],
      [[join(dir, 'flipped.gz'), '--force'], /is damaged/],
      [[altered, '--force'], /checksum does not match/],
      [[backup], /^The target database is not empty .*pass --force to replace its data with the backup\.$/],
    ];
    const results = await Promise.all(cases.map(([args]) => runOp('restore', args, { DATA_DIR: targetDir })));
    cases.forEach(([args, message], i) => {
      expect(results[i].output.trim(), args[0]).toMatch(message);
      expect(results[i].output.trim().split('\n'), args[0]).toHaveLength(1);
      expect(results[i].code, args[0]).toBe(1);
    });

    // A file whose checksum holds but whose rows the database refuses: the load fails half-way,
    // after the old schema was dropped, and the one transaction puts everything back.
    const bad = await rewritten((lines) => lines.map(breakUserId), true);
    const failed = await runOp('restore', [bad, '--force'], { DATA_DIR: targetDir });
    expect(failed.code).toBe(1);
    expect(await dumpOf(targetDir)).toEqual(targetDump);
  });

  it('replaces a non-empty target with --force', async () => {
    // The target holds the rows the first test added since its restore; --force puts the backup's back.
    // A copy others can read is restored, with a warning.
    await chmod(backup, 0o644);
    const replaced = await runOp('restore', [backup, '--force'], { DATA_DIR: targetDir });
    await chmod(backup, 0o600);
    expect(replaced.code, replaced.output).toBe(0);
    expect(replaced.output).toMatch(/^Warning: other users of this host can read .* \(mode 0644\); .*chmod 600 it\.$/m);
    expect(await dumpOf(targetDir)).toEqual(sourceDump);
  });

  it('refuses to back up while another process holds DATA_DIR', () => {
    expect(lockRefusal.code).toBe(1);
    expect(lockRefusal.output).toMatch(/^Cannot back up the embedded database while the server runs on it: /);
    expect(lockRefusal.output.trim().split('\n')).toHaveLength(1);
  });
});

/** The users table's first row, its username changed (the checksum no longer matches). */
function alterUsername(line: string, index: number, lines: string[]): string {
  const usersAt = lines.findIndex((l) => l.startsWith('{"table":"users"'));
  return index === usersAt + 1 ? line.replace(/^\["(\d+)","/, '["$1","x') : line;
}

/** The users table's first row with an id that is not a number. */
function breakUserId(line: string, index: number, lines: string[]): string {
  const usersAt = lines.findIndex((l) => l.startsWith('{"table":"users"'));
  return index === usersAt + 1 ? line.replace(/^\["\d+"/, '["not a number"') : line;
}
