// An import is written in pieces: a transaction has the embedded database's one session to
// itself, so a 5 MB file written in one held every other request for a second. Its story stays
// hidden until its last piece shows it, a refused or failed import deletes it, and one left by a
// process that died is deleted at the next start (deleteAbandonedImports) or by housekeeping.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepositories } from '@server/db/repositories';
import { cleanExpired } from '@server/jobs/housekeeping';
import { createTestApp, registerUser, type TestClient, type TestContext } from '@server/test/test-app';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({}, { painter: null });
});
afterAll(() => ctx.close());

const at = '2026-01-01T00:00:00.000Z';
const importFile = (client: TestClient, file: object) =>
  client.request({ method: 'POST', url: '/api/story/import', json: file });
const repos = () => createRepositories(ctx.database.db);

/** A file of `turns` turns whose replies are `replyChars` long. */
function storyFile(turns: number, replyChars: number) {
  const premise = 'A lamplighter finds the city dark behind her';
  const messages: object[] = [{ role: 'user', content: premise, turn: 0, isInitial: true, createdAt: at }];
  for (let turn = 0; turn <= turns; turn += 1) {
    if (turn > 0)
      messages.push({ role: 'user', content: `I light lamp ${turn}`, turn, isInitial: false, createdAt: at });
    messages.push({
      role: 'assistant',
      content: `Lamp ${turn}: ${'the wick catches and the street wakes. '.repeat(replyChars / 38)}`.slice(
        0,
        replyChars,
      ),
      turn,
      isInitial: false,
      createdAt: at,
    });
  }
  return {
    format: 'taleweaver.story',
    version: 2,
    exportedAt: at,
    story: { title: 'The Dark City', premise, memory: '', memoryCovers: 0, notes: '', createdAt: at },
    messages,
  };
}

describe('an import in pieces', () => {
  it('writes a big file in several short transactions and shows the story whole', async () => {
    const { client } = await registerUser(ctx.app);
    // Counted where the repositories open them: the app's database handle.
    const db = ctx.database.db as unknown as { transaction: (...args: unknown[]) => unknown };
    const transaction = db.transaction;
    let transactions = 0;
    db.transaction = (...args: unknown[]) => ((transactions += 1), transaction.apply(db, args));
    let res;
    try {
      // 600 replies of 4,000 characters: 2.4 MB of text.
      res = await importFile(client, storyFile(599, 4000));
    } finally {
      db.transaction = transaction;
    }
    expect(res.statusCode).toBe(201);
    // At most 256 KB of text a piece: ten pieces or more, each its own transaction.
    expect(transactions).toBeGreaterThanOrEqual(10);
    const state = (await client.get(`/api/story/${res.json().storyId}/current-state`)).json();
    expect(state.messages).toHaveLength(1 + 600 + 599);
    expect((await client.get('/api/stories')).json().stories.map((s: { id: number }) => s.id)).toEqual([
      res.json().storyId,
    ]);
  });

  it('hides a story whose import never finished, and deletes it at start-up and after an hour', async () => {
    const { client, id } = await registerUser(ctx.app);
    const made = await ctx.database.executeSql(
      `insert into stories (user_id, premise, importing, created_at, updated_at) values ($1, 'Half a file', true, $2, $2) returning id`,
      [id, ctx.clock.now.toISOString()],
    );
    const halfId = (made.rows[0] as { id: number }).id;
    await ctx.database.executeSql(
      `insert into story_messages (story_id, role, content, turn, is_initial, attempts) values ($1, 'user', 'Half a file', 0, true, 1)`,
      [halfId],
    );
    expect((await client.get(`/api/story/${halfId}/current-state`)).statusCode).toBe(404);
    expect((await client.post(`/api/story/${halfId}/continue`, { message: 'I go on' })).statusCode).toBe(404);
    expect((await client.get('/api/stories')).json().total).toBe(0);
    expect((await client.get(`/api/story/${halfId}/export?format=json`)).statusCode).toBe(404);

    // Housekeeping leaves an import of the last hour alone (it may still be running) and takes an older one.
    await cleanExpired(repos(), ctx.clock.now);
    expect(
      (await ctx.database.executeSql('select count(*)::int as n from stories where id = $1', [halfId])).rows[0],
    ).toEqual({ n: 1 });
    await cleanExpired(repos(), new Date(ctx.clock.now.getTime() + 61 * 60_000));
    expect(
      (await ctx.database.executeSql('select count(*)::int as n from stories where id = $1', [halfId])).rows[0],
    ).toEqual({ n: 0 });

    // At the embedded database's start-up every unfinished import goes, however recent.
    const again = await ctx.database.executeSql(
      `insert into stories (user_id, premise, importing) values ($1, 'Another half', true) returning id`,
      [id],
    );
    expect(await repos().storyFiles.deleteAbandonedImports()).toBe(1);
    expect(
      (
        await ctx.database.executeSql('select count(*)::int as n from stories where id = $1', [
          (again.rows[0] as { id: number }).id,
        ])
      ).rows[0],
    ).toEqual({ n: 0 });
    const limits = (await client.get('/api/user/limits')).json();
    expect([limits.stories.used, limits.storedBytes.used]).toEqual([0, 0]);
  });
});
