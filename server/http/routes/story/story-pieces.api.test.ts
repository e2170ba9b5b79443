// A story's big writes go in pieces, as an import's do: a story of 10,000 messages
// deleted in one statement held the embedded database's one session for more than a second, and
// branched in one for 300 ms. A deleted story is hidden at once (no read, turn or change finds it),
// its rows then go a few hundred messages a statement, and the account's counters end where they
// began; deleting an account goes the same way, story by story. A branch is written a few hundred
// messages a transaction, hidden until the last one shows it whole. Erase and redo of more than a
// piece go on a piece a statement under the story's lease, each piece leaving the story whole. A
// message's versions (up to 4 MB of text) are read and written out a page at a time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messageVersionsResponseSchema } from '@shared/schemas/story-versions';
import { TALLY_ROWS_PER_STATEMENT } from '@server/db/repositories/memory-statistics';
import { createTestApp, registerUser, type TestClient, type TestContext } from '@server/test/test-app';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({}, { painter: null });
});
afterAll(() => ctx.close());

const at = '2026-01-01T00:00:00.000Z';

/** A file of `turns` turns; every reply has three versions, the second shown. */
function storyFile(turns: number) {
  const premise = 'A ferryman counts the coins of the drowned';
  const messages: object[] = [{ role: 'user', content: premise, turn: 0, isInitial: true, createdAt: at }];
  for (let turn = 0; turn <= turns; turn += 1) {
    if (turn > 0)
      messages.push({ role: 'user', content: `I take coin ${turn}`, turn, isInitial: false, createdAt: at });
    const versions = [1, 2, 3].map((n) => ({
      kind: n === 1 ? 'original' : 'edit',
      content: `Coin ${turn}, telling ${n}: the river keeps its own accounts.`,
      createdAt: at,
    }));
    messages.push({
      role: 'assistant',
      content: versions[1].content,
      turn,
      isInitial: false,
      createdAt: at,
      versions,
      version: 2,
    });
  }
  return {
    format: 'taleweaver.story',
    version: 2,
    exportedAt: at,
    story: { title: 'The Ferry', premise, memory: '', memoryCovers: 0, notes: '', createdAt: at },
    messages,
  };
}

async function importStory(client: TestClient, turns: number): Promise<number> {
  const res = await client.request({ method: 'POST', url: '/api/story/import', json: storyFile(turns) });
  expect(res.statusCode).toBe(201);
  return res.json().storyId;
}

/** Counts the app's transactions while `work` runs. */
async function countingTransactions(work: () => Promise<void>): Promise<number> {
  const db = ctx.database.db as unknown as { transaction: (...args: unknown[]) => unknown };
  const transaction = db.transaction;
  let transactions = 0;
  db.transaction = (...args: unknown[]) => ((transactions += 1), transaction.apply(db, args));
  try {
    await work();
  } finally {
    db.transaction = transaction;
  }
  return transactions;
}

/** Counts the app's statements that delete story messages while `work` runs. */
async function countingMessageDeletes(work: () => Promise<void>): Promise<number> {
  const db = ctx.database.db as unknown as { execute: (...args: unknown[]) => unknown };
  const execute = db.execute;
  let deletes = 0;
  db.execute = (...args: unknown[]) => {
    const text = JSON.stringify(args[0] ?? '');
    if (text.includes('delete from story_messages')) deletes += 1;
    return execute.apply(db, args);
  };
  try {
    await work();
  } finally {
    db.execute = execute;
  }
  return deletes;
}

const countOf = async (query: string, params: unknown[]) =>
  ((await ctx.database.executeSql(query, params)).rows[0] as { n: number }).n;

describe('a story deleted in pieces', () => {
  it('deletes every row of a long story a few hundred messages at a time and gives back what it counted', async () => {
    const { client } = await registerUser(ctx.app);
    const storyId = await importStory(client, 700);
    const messageIds = (
      await ctx.database.executeSql('select id from story_messages where story_id = $1', [storyId])
    ).rows.map((r) => (r as { id: number }).id);
    expect(messageIds).toHaveLength(1 + 701 + 700);
    expect((await client.get('/api/user/limits')).json().storedBytes.used).toBeGreaterThan(0);
    expect((await client.post(`/api/story/${storyId}/share`, { title: 'The Ferry' })).statusCode).toBe(201);
    expect(
      (await client.post('/api/bookmarks', { storyId, lastMessageId: messageIds.at(-1), title: 'Midstream' }))
        .statusCode,
    ).toBe(201);
    expect((await client.get('/api/user/limits')).json().shares.used).toBe(1);

    const deletes = await countingMessageDeletes(async () => {
      expect((await client.request({ method: 'DELETE', url: `/api/story/${storyId}`, json: {} })).statusCode).toBe(200);
    });
    // 1,402 messages at 250 a statement, and the last that finds none left.
    expect(deletes).toBe(7);
    expect(await countOf('select count(*)::int as n from stories where id = $1', [storyId])).toBe(0);
    expect(await countOf('select count(*)::int as n from story_messages where story_id = $1', [storyId])).toBe(0);
    expect(
      await countOf('select count(*)::int as n from message_versions where message_id = any($1::int[])', [messageIds]),
    ).toBe(0);
    expect(await countOf('select count(*)::int as n from shared_stories where story_id = $1', [storyId])).toBe(0);
    expect(await countOf('select count(*)::int as n from bookmarks where story_id = $1', [storyId])).toBe(0);
    const limits = (await client.get('/api/user/limits')).json();
    expect([limits.stories.used, limits.shares.used, limits.storedBytes.used]).toEqual([0, 0, 0]);
  });

  it('hides a story whose deletion has begun: it cannot be read, played, changed, branched or deleted again', async () => {
    const { client } = await registerUser(ctx.app);
    const storyId = await importStory(client, 3);
    const firstAction = (
      (
        await ctx.database.executeSql(
          `select id from story_messages where story_id = $1 and role = 'user' and not is_initial order by id limit 1`,
          [storyId],
        )
      ).rows[0] as { id: number }
    ).id;
    // A deletion's first step, as a process that died right after it left the story.
    await ctx.database.executeSql('update stories set importing = true where id = $1', [storyId]);
    expect((await client.get(`/api/story/${storyId}/current-state`)).statusCode).toBe(404);
    expect((await client.post(`/api/story/${storyId}/erase`, { fromMessageId: firstAction })).statusCode).toBe(404);
    expect((await client.post(`/api/story/${storyId}/branch`, { messageId: firstAction })).statusCode).toBe(404);
    expect((await client.request({ method: 'DELETE', url: `/api/story/${storyId}`, json: {} })).statusCode).toBe(404);
    expect((await client.get('/api/stories')).json().total).toBe(0);
  });

  it('deletes an account story by story, in pieces, and everything of it goes', async () => {
    const { client, id, password } = await registerUser(ctx.app);
    const first = await importStory(client, 300);
    const second = await importStory(client, 300);
    const deletes = await countingMessageDeletes(async () => {
      expect((await client.request({ method: 'DELETE', url: '/api/user', json: { password } })).statusCode).toBe(200);
    });
    // 602 messages a story: three pieces and the empty one, twice.
    expect(deletes).toBe(8);
    expect(await countOf('select count(*)::int as n from stories where id = any($1::int[])', [[first, second]])).toBe(
      0,
    );
    expect(await countOf('select count(*)::int as n from users where id = $1', [id])).toBe(0);
    expect(await countOf('select count(*)::int as n from user_stats where user_id = $1', [id])).toBe(0);
  });
});

describe('a branch written in pieces', () => {
  it('copies a long story a few hundred messages a transaction, each shown version as the copy\u2019s original, and lists it only whole', async () => {
    const { client } = await registerUser(ctx.app);
    const storyId = await importStory(client, 700);
    // The memory bank's index of the import, done off the request: the branch copies its term statistics.
    await ctx.app.turns.idle();
    const terms = await countOf('select count(*)::int as n from memory_terms where story_id = $1', [storyId]);
    expect(terms).toBeGreaterThan(0);
    const source = (await client.get(`/api/story/${storyId}/current-state`)).json().messages as Array<{
      messageId: number;
      role: string;
      content: string;
    }>;
    let branchId = 0;
    const transactions = await countingTransactions(async () => {
      const res = await client.post(`/api/story/${storyId}/branch`, { messageId: source.at(-1)!.messageId });
      expect(res.statusCode).toBe(201);
      branchId = res.json().storyId;
    });
    // The first step, 1,402 messages at 250 a piece (6), the term statistics TALLY_ROWS_PER_STATEMENT
    // rows a transaction, and the last step that shows it.
    expect(transactions).toBe(1 + 6 + Math.ceil(terms / TALLY_ROWS_PER_STATEMENT) + 1);
    expect(await countOf('select count(*)::int as n from memory_terms where story_id = $1', [branchId])).toBe(terms);
    const copy = (await client.get(`/api/story/${branchId}/current-state`)).json().messages as Array<{
      role: string;
      content: string;
    }>;
    expect(copy.map((m) => [m.role, m.content])).toEqual(source.map((m) => [m.role, m.content]));
    expect(copy[3].content).toBe('Coin 1, telling 2: the river keeps its own accounts.');
    expect(
      await countOf(
        'select count(*)::int as n from message_versions v join story_messages m on m.id = v.message_id where m.story_id = $1',
        [branchId],
      ),
    ).toBe(0);
    const limits = (await client.get('/api/user/limits')).json();
    expect(limits.stories.used).toBe(2);
    expect((await client.get('/api/stories')).json().total).toBe(2);
  });
});

describe('erase and redo in pieces', () => {
  it('sets aside and brings back a long story a piece a statement, holding the story meanwhile and letting go after', async () => {
    const { client } = await registerUser(ctx.app);
    const storyId = await importStory(client, 700);
    const source = (await client.get(`/api/story/${storyId}/current-state`)).json().messages as Array<{
      messageId: number;
      content: string;
    }>;
    const leaseHeld = async () =>
      (
        (
          await ctx.database.executeSql('select generating_until is not null as held from stories where id = $1', [
            storyId,
          ])
        ).rows[0] as { held: boolean }
      ).held;

    /** Counts the statements of each kind of piece, and whether the story was held when the second one ran. */
    async function watchingPieces(kind: string, work: () => Promise<void>) {
      const db = ctx.database.db as unknown as { execute: (...args: unknown[]) => unknown };
      const execute = db.execute;
      let pieces = 0;
      let heldMidway: boolean | null = null;
      db.execute = async (...args: unknown[]) => {
        if (JSON.stringify(args[0] ?? '').includes(kind)) {
          pieces += 1;
          if (pieces === 2) heldMidway = await leaseHeld();
        }
        return execute.apply(db, args);
      };
      try {
        await work();
      } finally {
        db.execute = execute;
      }
      return { pieces, heldMidway };
    }

    const erased = await watchingPieces("set state = 'undone'", async () => {
      const res = await client.post(`/api/story/${storyId}/erase`, { fromMessageId: source[2].messageId });
      expect(res.statusCode).toBe(200);
      expect(res.json().messages).toHaveLength(2);
      expect(res.json().canRedo).toBe(true);
    });
    // 1,400 messages: 250 under the story's lock, then five statements (the last with 150).
    expect(erased).toEqual({ pieces: 5, heldMidway: true });
    expect(await leaseHeld()).toBe(false);

    const redone = await watchingPieces("set state = 'shown'", async () => {
      const res = await client.post(`/api/story/${storyId}/redo`, {});
      expect(res.statusCode).toBe(200);
      expect(res.json().canRedo).toBe(false);
    });
    expect(redone).toEqual({ pieces: 5, heldMidway: true });
    expect(await leaseHeld()).toBe(false);
    const back = (await client.get(`/api/story/${storyId}/current-state`)).json().messages as Array<{
      messageId: number;
      content: string;
    }>;
    expect(back.map((m) => [m.messageId, m.content])).toEqual(source.map((m) => [m.messageId, m.content]));
    // And the story plays on.
    expect((await client.post(`/api/story/${storyId}/undo`, {})).statusCode).toBe(200);
    expect((await client.get(`/api/story/${storyId}/current-state`)).json().messages).toHaveLength(source.length - 2);
  });
});

describe('a message\u2019s versions read in pages', () => {
  it('reads 40 versions of 20,000 characters a few hundred KB a statement and answers them all, in order', async () => {
    const { client } = await registerUser(ctx.app);
    const file = storyFile(1);
    const reply = file.messages.at(-1) as { content: string; versions: object[]; version: number };
    reply.versions = Array.from({ length: 40 }, (_, n) => ({
      kind: n === 0 ? 'original' : 'edit',
      content: `${n} ${'The ferry turns on the black water. '.repeat(600)}`.slice(0, 20_000),
      createdAt: at,
    }));
    reply.version = 40;
    reply.content = (reply.versions[39] as { content: string }).content;
    const res = await client.request({ method: 'POST', url: '/api/story/import', json: file });
    expect(res.statusCode).toBe(201);
    const storyId = res.json().storyId as number;
    const messages = (await client.get(`/api/story/${storyId}/current-state`)).json().messages as Array<{
      messageId: number;
    }>;

    const db = ctx.database.db as unknown as { execute: (...args: unknown[]) => unknown };
    const execute = db.execute;
    let pages = 0;
    db.execute = (...args: unknown[]) => {
      if (JSON.stringify(args[0] ?? '').includes('version between')) pages += 1;
      return execute.apply(db, args);
    };
    let answer;
    try {
      answer = await client.get(`/api/story/${storyId}/messages/${messages.at(-1)!.messageId}/versions`);
    } finally {
      db.execute = execute;
    }
    expect(answer.statusCode).toBe(200);
    // 800 KB of text at most 256 KB a page.
    expect(pages).toBe(4);
    const body = messageVersionsResponseSchema.parse(answer.json());
    expect(body).toMatchObject({ messageId: messages.at(-1)!.messageId, role: 'assistant', version: 40 });
    expect(body.versions.map((v) => [v.version, v.kind, v.content])).toEqual(
      reply.versions.map((v, n) => [n + 1, (v as { kind: string }).kind, (v as { content: string }).content]),
    );
  });
});
