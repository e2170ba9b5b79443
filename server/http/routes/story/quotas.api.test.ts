// Account quotas: stories (starts, imports and branches), live share links, versions of
// one message and the bytes of stored text, each refused with a message naming its limit (429 for
// counts, 413 for bytes), losing nothing, holding under a burst of parallel requests, and freed
// again by deleting; GET /api/user/limits shows each quota's use against its limit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUOTA_MESSAGES } from '@shared/schemas/quotas';
import { quotaCounters, storedBytesByKind } from '@server/test/quota-counters';
import { play, startStory } from '@server/test/story-turns';
import { createTestApp, registerUser, TestClient, type TestContext } from '@server/test/test-app';
import { proseWriter } from '@server/test/varied-prose';

const MIB = 1024 * 1024;
const LIMITS = { maxStories: 3, maxShares: 2, maxStoredBytes: MIB };
const PREMISE = 'A cartographer maps a valley that moves at night';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({ quotas: LIMITS, userMonthlyTokenLimit: 1_000_000 });
});
afterAll(() => ctx.close());

const TOO_MANY_STORIES = {
  code: 'QUOTA_EXCEEDED',
  message: 'You have 3 stories, the most one account may keep. Delete a story to start, import or branch another.',
};
const TOO_MANY_SHARES = {
  code: 'QUOTA_EXCEEDED',
  message: 'You have 2 shared links, the most one account may have at once. Stop sharing a story to share another.',
};
const TOO_MANY_VERSIONS = {
  code: 'QUOTA_EXCEEDED',
  message: 'This message has 200 versions, the most one message may keep. Choose one of them instead.',
};
const STORAGE_FULL = {
  code: 'STORAGE_FULL',
  message:
    'Your stories would take more than the 1 MB one account may store. Delete a story or stop sharing one to make room.',
};

interface Limits {
  stories: { used: number; limit: number };
  shares: { used: number; limit: number };
  storedBytes: { used: number; limit: number };
  monthlyTokens: { used: number; limit: number } | null;
}
const limitsOf = async (client: TestClient) => (await client.get('/api/user/limits')).json() as Limits;
const storyCount = async (client: TestClient) => (await client.get('/api/stories')).json().total as number;
const stateOf = async (client: TestClient, storyId: number) =>
  (await client.get(`/api/story/${storyId}/current-state`)).json();
const importFile = (client: TestClient, file: unknown) =>
  client.request({
    method: 'POST',
    url: '/api/story/import',
    payload: JSON.stringify(file),
    headers: { 'content-type': 'application/json' },
  });
const refusal = (res: { statusCode: number; json(): unknown }) => [res.statusCode, res.json()];
/**
 * Once the memory bank has indexed what was just written (it does after an import, off the request),
 * the bytes of its passages and terms: they count against the player's storage too.
 */
async function indexedBytes(userId: number): Promise<number> {
  await ctx.app.turns.idle();
  const kinds = await storedBytesByKind(ctx.database, userId);
  return kinds.passages + kinds.terms;
}

/**
 * A story file whose text (premise, actions and replies, ASCII) stores exactly `bytes` bytes, as
 * the storage quota counts them: replies of up to 20,000 characters, an action before each.
 */
function storyFileOf(bytes: number, premise = PREMISE) {
  const at = '2025-01-01T00:00:00.000Z';
  const messages: Array<{
    role: 'user' | 'assistant';
    content: string;
    turn: number;
    isInitial: boolean;
    createdAt: string;
  }> = [{ role: 'user', content: premise, turn: 0, isInitial: true, createdAt: at }];
  // The premise is stored twice: as the story's premise and as its first message.
  let left = bytes - 2 * premise.length;
  for (let turn = 0; left > 0; turn += 1) {
    if (turn > 0) {
      const action = 'I walk on';
      messages.push({ role: 'user', content: action, turn, isInitial: false, createdAt: at });
      left -= action.length;
    }
    const size = Math.max(1, Math.min(20_000, left));
    messages.push({ role: 'assistant', content: 'r'.repeat(size), turn, isInitial: false, createdAt: at });
    left -= size;
  }
  if (left !== 0) throw new Error(`cannot make a file of exactly ${bytes} bytes`);
  return {
    format: 'taleweaver.story',
    version: 2,
    exportedAt: at,
    story: { title: 'A Long Road', premise, memory: '', memoryCovers: 0, notes: '', createdAt: at },
    messages,
  };
}

describe('GET /api/user/limits', () => {
  it("shows each quota's use against its limit, to the signed-in player only", async () => {
    const { client, id } = await registerUser(ctx.app);
    expect(await limitsOf(client)).toEqual({
      stories: { used: 0, limit: 3 },
      shares: { used: 0, limit: 2 },
      storedBytes: { used: 0, limit: MIB },
      monthlyTokens: { used: 0, limit: 1_000_000 },
    });
    const { storyId } = await startStory(client, PREMISE);
    await client.post(`/api/story/${storyId}/share`, { title: 'The Valley' });
    const after = await limitsOf(client);
    expect(after.stories.used).toBe(1);
    expect(after.shares.used).toBe(1);
    expect(after.storedBytes.used).toBeGreaterThan(2 * PREMISE.length);
    // Everything stored counts: the opening reply's context record too, beside the story's text.
    const kinds = await storedBytesByKind(ctx.database, id);
    expect(kinds.contexts).toBeGreaterThan(0);
    expect(after.storedBytes.used).toBe(Object.values(kinds).reduce((sum, n) => sum + n, 0));
    expect(after.monthlyTokens!.used).toBe((await client.get('/api/user')).json().tokenUsage.thisMonth);
    expect(after.monthlyTokens!.used).toBeGreaterThan(0);
    expect((await new TestClient(ctx.app).get('/api/user/limits')).statusCode).toBe(401);
  });

  it('has no monthly token line without USER_MONTHLY_TOKEN_LIMIT, and the default limits', async () => {
    const plain = await createTestApp();
    try {
      const { client } = await registerUser(plain.app);
      expect(await limitsOf(client)).toEqual({
        stories: { used: 0, limit: 1000 },
        shares: { used: 0, limit: 200 },
        storedBytes: { used: 0, limit: 500 * MIB },
        monthlyTokens: null,
      });
    } finally {
      await plain.close();
    }
  });
});

describe('USER_MAX_STORIES', () => {
  it('refuses a start, an import and a branch past the limit, creating nothing, until a story is deleted', async () => {
    const { client } = await registerUser(ctx.app);
    const first = await startStory(client, PREMISE);
    await startStory(client, 'A second valley');
    expect((await importFile(client, storyFileOf(2000))).statusCode).toBe(201);

    expect(refusal(await client.post('/api/story/start', { prompt: 'One story too many' }))).toEqual([
      429,
      TOO_MANY_STORIES,
    ]);
    expect(refusal(await importFile(client, storyFileOf(2000)))).toEqual([429, TOO_MANY_STORIES]);
    expect(refusal(await client.post(`/api/story/${first.storyId}/branch`, { messageId: first.messageId }))).toEqual([
      429,
      TOO_MANY_STORIES,
    ]);
    expect(await storyCount(client)).toBe(3);
    expect((await limitsOf(client)).stories).toEqual({ used: 3, limit: 3 });

    expect((await client.request({ method: 'DELETE', url: `/api/story/${first.storyId}`, json: {} })).statusCode).toBe(
      200,
    );
    expect((await client.post('/api/story/start', { prompt: 'Room again' })).statusCode).toBe(200);
    expect(await storyCount(client)).toBe(3);
  });

  it('holds under a burst of parallel imports: exactly as many as fit are made', async () => {
    const { client, id } = await registerUser(ctx.app);
    const answers = await Promise.all(Array.from({ length: 6 }, () => importFile(client, storyFileOf(1000))));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 201, 201, 429, 429, 429]);
    expect(await storyCount(client)).toBe(3);
    const { counted, actual } = await quotaCounters(ctx.database, id);
    expect(counted).toEqual(actual);
  });
});

describe('USER_MAX_SHARES', () => {
  it('refuses a share link past the limit until one is stopped or its story deleted', async () => {
    const { client, id } = await registerUser(ctx.app);
    const { storyId } = await startStory(client, PREMISE);
    const shareIds: string[] = [];
    for (const title of ['One', 'Two']) {
      const res = await client.post(`/api/story/${storyId}/share`, { title });
      expect(res.statusCode).toBe(201);
      shareIds.push(res.json().shareId);
    }
    const refused = await client.post(`/api/story/${storyId}/share`, { title: 'Three' });
    expect(refusal(refused)).toEqual([429, TOO_MANY_SHARES]);
    expect(
      (await ctx.database.executeSql('select count(*)::int as n from shared_stories where user_id = $1', [id])).rows,
    ).toEqual([{ n: 2 }]);

    expect((await client.request({ method: 'DELETE', url: `/api/shared/${shareIds[0]}`, json: {} })).statusCode).toBe(
      200,
    );
    expect((await limitsOf(client)).shares.used).toBe(1);
    expect((await client.post(`/api/story/${storyId}/share`, { title: 'Three' })).statusCode).toBe(201);
    expect((await client.request({ method: 'DELETE', url: `/api/story/${storyId}`, json: {} })).statusCode).toBe(200);
    expect((await limitsOf(client)).shares.used).toBe(0);
  });

  it('holds under a burst of parallel shares', async () => {
    const { client } = await registerUser(ctx.app);
    const { storyId } = await startStory(client, PREMISE);
    const answers = await Promise.all(
      Array.from({ length: 5 }, (_, i) => client.post(`/api/story/${storyId}/share`, { title: `Share ${i}` })),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 201, 429, 429, 429]);
    expect((await limitsOf(client)).shares.used).toBe(2);
  });
});

describe('versions per message', () => {
  /** Gives a message 200 versions ("Version 1" … "Version 200"), showing the last. */
  async function fillVersions(messageId: number, kind: 'edit' | 'alternative' | 'replacement') {
    await ctx.database.executeSql(
      `insert into message_versions (message_id, version, kind, content)
       select $1, g, case when g = 1 then 'original' else $2 end, 'Version ' || g from generate_series(1, 200) g`,
      [messageId, kind],
    );
    await ctx.database.executeSql(
      `update story_messages set versions = 200, version = 200, content = 'Version 200' where id = $1`,
      [messageId],
    );
  }
  const versionsOf = async (client: TestClient, storyId: number, messageId: number) =>
    (await client.get(`/api/story/${storyId}/messages/${messageId}/versions`)).json().versions as Array<{
      version: number;
      kind: string;
      content: string;
    }>;

  it('refuses an edit and a retry of a message that has 200 versions, changing nothing; choosing one still works', async () => {
    const { client } = await registerUser(ctx.app);
    const { storyId } = await startStory(client, PREMISE);
    const reply = await play(client, storyId, 'I unfold the map');
    await fillVersions(reply.messageId, 'alternative');
    const actionId = (await stateOf(client, storyId)).messages[2].messageId as number;
    const attempts = async () =>
      (await ctx.database.executeSql('select attempts from story_messages where id = $1', [actionId])).rows;
    const attemptsBefore = await attempts();

    const edited = await client.request({
      method: 'PATCH',
      url: `/api/story/${storyId}/messages/${reply.messageId}`,
      json: { content: 'One edit too many' },
    });
    expect(refusal(edited)).toEqual([429, TOO_MANY_VERSIONS]);
    expect(refusal(await client.post(`/api/story/${storyId}/retry`))).toEqual([429, TOO_MANY_VERSIONS]);
    expect(await attempts()).toEqual(attemptsBefore);
    const history = await versionsOf(client, storyId, reply.messageId);
    expect([history.length, history.at(-1)!.content]).toEqual([200, 'Version 200']);
    expect((await stateOf(client, storyId)).messages.at(-1)).toMatchObject({ content: 'Version 200', versions: 200 });

    const chosen = await client.post(`/api/story/${storyId}/messages/${reply.messageId}/select`, { version: 7 });
    expect(chosen.json()).toMatchObject({ content: 'Version 7', version: 7, versions: 200 });
    // The lease was given back: the story plays on.
    expect((await client.post(`/api/story/${storyId}/continue`, { message: 'I fold the map' })).statusCode).toBe(200);
  });

  it('lets a message reach 200 versions by an edit, then no further', async () => {
    const { client } = await registerUser(ctx.app);
    const { storyId } = await startStory(client, PREMISE);
    const reply = await play(client, storyId, 'I unfold the map');
    await fillVersions(reply.messageId, 'edit');
    await ctx.database.executeSql(`delete from message_versions where message_id = $1 and version = 200`, [
      reply.messageId,
    ]);
    await ctx.database.executeSql(
      `update story_messages set versions = 199, version = 199, content = 'Version 199' where id = $1`,
      [reply.messageId],
    );
    const edit = (content: string) =>
      client.request({ method: 'PATCH', url: `/api/story/${storyId}/messages/${reply.messageId}`, json: { content } });
    expect((await edit('The two hundredth')).json()).toMatchObject({ version: 200, versions: 200 });
    expect(refusal(await edit('The two hundred and first'))).toEqual([429, TOO_MANY_VERSIONS]);
  });

  it("never fails a player's turn: a new action replacing an unanswered one at 200 versions takes the last version's place", async () => {
    const { client } = await registerUser(ctx.app);
    const { storyId } = await startStory(client, PREMISE);
    const reply = await play(client, storyId, 'I shout into the well');
    // Erasing the reply leaves the action unanswered, as a failed reply does.
    await client.post(`/api/story/${storyId}/erase`, { fromMessageId: reply.messageId });
    const actionId = (await stateOf(client, storyId)).messages[2].messageId as number;
    await fillVersions(actionId, 'replacement');

    expect(
      (await client.post(`/api/story/${storyId}/continue`, { message: 'I drop a coin into the well' })).statusCode,
    ).toBe(200);
    const state = await stateOf(client, storyId);
    expect(state.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(state.messages[2]).toMatchObject({
      messageId: actionId,
      content: 'I drop a coin into the well',
      version: 200,
      versions: 200,
    });
    const history = await versionsOf(client, storyId, actionId);
    expect(history).toHaveLength(200);
    expect(history.slice(-2).map((v) => [v.version, v.kind, v.content])).toEqual([
      [199, 'replacement', 'Version 199'],
      [200, 'replacement', 'I drop a coin into the well'],
    ]);
  });
});

describe('USER_MAX_STORED_MB', () => {
  it('refuses every write that would pass the limit, losing nothing, until a story is deleted', async () => {
    const { client, id } = await registerUser(ctx.app);
    const room = 1500;
    const filled = await importFile(client, storyFileOf(MIB - room));
    expect(filled.statusCode).toBe(201);
    const storyId = filled.json().storyId as number;
    // The file's text, and the memory bank's index of it (written after the import, never refused).
    const index = await indexedBytes(id);
    expect(index).toBeGreaterThan(0);
    expect(index).toBeLessThan(room);
    expect((await limitsOf(client)).storedBytes).toEqual({ used: MIB - room + index, limit: MIB });

    // An action that would not fit is refused before anything is written.
    const before = await stateOf(client, storyId);
    expect(refusal(await client.post(`/api/story/${storyId}/continue`, { message: 'x'.repeat(room + 1) }))).toEqual([
      413,
      STORAGE_FULL,
    ]);
    expect(await stateOf(client, storyId)).toEqual(before);
    // A file that would not fit is refused too.
    expect(refusal(await importFile(client, storyFileOf(room + 1)))).toEqual([413, STORAGE_FULL]);

    // A short action still fits; its reply, and then 'Try again' replies, fill the room until the
    // stored text is past the limit. Then every write is refused.
    await play(client, storyId, 'I wait');
    let retries = 0;
    while ((await client.post(`/api/story/${storyId}/retry`)).statusCode === 200) retries += 1;
    expect(retries).toBeLessThan(10);
    // The imported story's memory catches up in the background (a fold after each turn): let it land,
    // so the figures below are the account's, not a fold's half-way point.
    await ctx.app.turns.idle();
    const full = await limitsOf(client);
    expect(full.storedBytes.used).toBeGreaterThan(MIB);
    const state = await stateOf(client, storyId);
    const lastReply = state.messages.at(-1);
    expect(state.replying).toBe(false);

    expect(refusal(await client.post(`/api/story/${storyId}/continue`, { message: 'I wait' }))).toEqual([
      413,
      STORAGE_FULL,
    ]);
    expect(refusal(await client.post(`/api/story/${storyId}/retry`))).toEqual([413, STORAGE_FULL]);
    expect(refusal(await client.post('/api/story/start', { prompt: 'A new tale' }))).toEqual([413, STORAGE_FULL]);
    const edited = await client.request({
      method: 'PATCH',
      url: `/api/story/${storyId}/messages/${lastReply.messageId}`,
      json: { content: `${lastReply.content} More.` },
    });
    expect(refusal(edited)).toEqual([413, STORAGE_FULL]);
    expect(refusal(await client.post(`/api/story/${storyId}/branch`, { messageId: lastReply.messageId }))).toEqual([
      413,
      STORAGE_FULL,
    ]);
    expect(refusal(await client.post(`/api/story/${storyId}/share`, { title: 'Full' }))).toEqual([413, STORAGE_FULL]);
    expect(refusal(await importFile(client, storyFileOf(200)))).toEqual([413, STORAGE_FULL]);

    expect(await stateOf(client, storyId)).toEqual(state);
    expect(await storyCount(client)).toBe(1);
    expect(await limitsOf(client)).toEqual(full);
    const { counted, actual } = await quotaCounters(ctx.database, id);
    expect(counted).toEqual(actual);

    expect((await client.request({ method: 'DELETE', url: `/api/story/${storyId}`, json: {} })).statusCode).toBe(200);
    expect((await limitsOf(client)).storedBytes.used).toBe(0);
    expect((await client.post('/api/story/start', { prompt: 'A new tale' })).statusCode).toBe(200);
  });

  it("counts the memory bank's index, never refused: past the limit, the player's next write is refused", async () => {
    const { client, id } = await registerUser(ctx.app);
    // A file of prose whose text fits with room to spare; its index (the passages' text, terms and
    // counts) is larger than that room.
    const file = storyFileOf(2 * PREMISE.length);
    const writer = proseWriter(23);
    let text = 2 * PREMISE.length;
    for (let turn = 1; text < MIB * 0.6; turn += 1) {
      const action = writer.action();
      const reply = writer.reply(100);
      file.messages.push(
        { role: 'user', content: action, turn, isInitial: false, createdAt: file.exportedAt },
        { role: 'assistant', content: reply, turn, isInitial: false, createdAt: file.exportedAt },
      );
      text += Buffer.byteLength(action) + Buffer.byteLength(reply);
    }
    const imported = await importFile(client, file);
    expect(imported.statusCode).toBe(201);
    const storyId = imported.json().storyId as number;
    const index = await indexedBytes(id);
    expect(index).toBeGreaterThan(MIB - text);
    // Every shown message was indexed, though the index took the account past its limit.
    const unindexed = await ctx.database.executeSql(
      `select count(*)::int as n from story_messages where story_id = $1 and not is_initial and indexed_version is distinct from version`,
      [storyId],
    );
    expect(unindexed.rows).toEqual([{ n: 0 }]);
    expect((await limitsOf(client)).storedBytes).toEqual({ used: text + index, limit: MIB });
    const { counted, actual } = await quotaCounters(ctx.database, id);
    expect(counted).toEqual(actual);

    expect(refusal(await client.post(`/api/story/${storyId}/continue`, { message: 'I wait' }))).toEqual([
      413,
      STORAGE_FULL,
    ]);
    expect(refusal(await client.post('/api/story/start', { prompt: 'A new tale' }))).toEqual([413, STORAGE_FULL]);
  });

  it('refuses a branch or a share whose copy would not fit, keeping nothing of it', async () => {
    const { client } = await registerUser(ctx.app);
    const filled = await importFile(client, storyFileOf(Math.floor(MIB * 0.6)));
    const storyId = filled.json().storyId as number;
    const last = (await stateOf(client, storyId)).messages.at(-1);
    await ctx.app.turns.idle();
    const used = (await limitsOf(client)).storedBytes.used;
    expect(refusal(await client.post(`/api/story/${storyId}/branch`, { messageId: last.messageId }))).toEqual([
      413,
      STORAGE_FULL,
    ]);
    expect(refusal(await client.post(`/api/story/${storyId}/share`, { title: 'Too big to copy' }))).toEqual([
      413,
      STORAGE_FULL,
    ]);
    expect(await limitsOf(client)).toMatchObject({ stories: { used: 1 }, shares: { used: 0 }, storedBytes: { used } });
  });

  it('holds under a burst of parallel branches: written one after another, as many as fit are made', async () => {
    const { client, id } = await registerUser(ctx.app);
    const storyId = (await importFile(client, storyFileOf(400_000))).json().storyId as number;
    const last = (await stateOf(client, storyId)).messages.at(-1);
    // The story with its index: a branch copies both.
    await ctx.app.turns.idle();
    const one = (await limitsOf(client)).storedBytes.used;
    const answers = await Promise.all(
      Array.from({ length: 3 }, () => client.post(`/api/story/${storyId}/branch`, { messageId: last.messageId })),
    );
    // Side by side, each copy counted the others' half-written rows, and all three could be refused.
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 413, 413]);
    await ctx.app.turns.idle();
    expect(await limitsOf(client)).toMatchObject({ stories: { used: 2 }, storedBytes: { used: 2 * one } });
    const { counted, actual } = await quotaCounters(ctx.database, id);
    expect(counted).toEqual(actual);
  });

  it('holds under a burst of parallel imports: no more are kept than fit', async () => {
    const { client, id } = await registerUser(ctx.app);
    const answers = await Promise.all(Array.from({ length: 3 }, () => importFile(client, storyFileOf(400_000))));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 201, 413]);
    // The two files' text, and their index once the memory bank has written it.
    const index = await indexedBytes(id);
    expect((await limitsOf(client)).storedBytes.used).toBe(800_000 + index);
    const { counted, actual } = await quotaCounters(ctx.database, id);
    expect(counted).toEqual(actual);
  });
});

// The messages the tests spell out are the ones the app builds from its settings.
it('names each limit in its message', () => {
  expect(QUOTA_MESSAGES.tooManyStories(3)).toBe(TOO_MANY_STORIES.message);
  expect(QUOTA_MESSAGES.tooManyShares(2)).toBe(TOO_MANY_SHARES.message);
  expect(QUOTA_MESSAGES.tooManyVersions).toBe(TOO_MANY_VERSIONS.message);
  expect(QUOTA_MESSAGES.storageFull(1)).toBe(STORAGE_FULL.message);
  expect(QUOTA_MESSAGES.tooManyStories(1000)).toContain('1,000 stories');
});
