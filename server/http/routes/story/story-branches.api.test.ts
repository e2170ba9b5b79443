// The player in control, part two: branching from a message (the copy, its title, its
// memory as it stood there, notes, pictures and style sheet, and each story's branches and origin),
// the memory going back to the fold before turns that undo or erase set aside, each alternative's
// own picture, and a normal turn costing no extra statement for versions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepositories } from '@server/db/repositories';
import { settlePicture } from '@server/test/fake-painter';
import { play, startStory as startTurn } from '@server/test/story-turns';
import { registerUser, TestClient, type TestContext, createPaintingTestApp } from '@server/test/test-app';
import { JOB_SCHEMA } from '@server/jobs/queue';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createPaintingTestApp();
});
afterAll(() => ctx.close());

type Message = { messageId: number; role: string; content: string; image?: string };

const startStory = (client: TestClient, prompt = 'A beekeeper hears the hive speak in her grandmother\u2019s voice') =>
  startTurn(client, prompt);
const messagesOf = async (client: TestClient, storyId: number) =>
  (await client.get(`/api/story/${storyId}/current-state`)).json().messages as Message[];

describe('POST /api/story/:id/branch', () => {
  it('copies the story up to a message into a new story of the owner\u2019s, with its notes, and each lists the other', async () => {
    const { client } = await registerUser(ctx.app);
    const { storyId } = await startStory(client);
    const turn1 = await play(client, storyId, 'I lift the lid of the hive');
    await play(client, storyId, 'I answer the voice');
    await client.request({
      method: 'PUT',
      url: `/api/story/${storyId}/memory`,
      json: { premise: 'A beekeeper and a talking hive', summary: '', notes: 'Keep it gentle.' },
    });
    const title = (await client.get(`/api/story/${storyId}/generate-title`)).json().title as string;

    const res = await client.post(`/api/story/${storyId}/branch`, { messageId: turn1.messageId });
    expect(res.statusCode).toBe(201);
    const branchId = res.json().storyId as number;
    expect(branchId).not.toBe(storyId);
    const original = await messagesOf(client, storyId);
    const copy = await messagesOf(client, branchId);
    expect(copy.map((m) => [m.role, m.content])).toEqual(original.slice(0, 4).map((m) => [m.role, m.content]));
    expect(copy.every((m) => !original.some((o) => o.messageId === m.messageId))).toBe(true);
    expect((await client.get(`/api/story/${branchId}/generate-title`)).json().title).toBe(`${title} (branch)`);
    expect((await client.get(`/api/story/${branchId}/memory`)).json()).toEqual({
      premise: 'A beekeeper and a talking hive',
      summary: '',
      notes: 'Keep it gentle.',
      chunks: [],
    });

    // The branch goes on by itself; the original is untouched.
    await play(client, branchId, 'I close the hive and walk away');
    expect((await messagesOf(client, storyId)).map((m) => m.content)).toEqual(original.map((m) => m.content));

    expect((await client.get(`/api/story/${storyId}/branches`)).json()).toEqual({
      origin: null,
      branches: [{ storyId: branchId, title: `${title} (branch)`, createdAt: expect.any(String) }],
    });
    expect((await client.get(`/api/story/${branchId}/branches`)).json()).toEqual({
      origin: { storyId, title },
      branches: [],
    });
  });

  it('keeps the title within 60 characters, ending in (branch)', async () => {
    const { client } = await registerUser(ctx.app);
    const { storyId, messageId } = await startStory(client);
    await client.request({ method: 'PATCH', url: `/api/story/${storyId}`, json: { title: 'T'.repeat(60) } });
    const branchId = (await client.post(`/api/story/${storyId}/branch`, { messageId })).json().storyId;
    const title = (await client.get(`/api/story/${branchId}/generate-title`)).json().title as string;
    expect(title).toBe(`${'T'.repeat(50)}\u2026 (branch)`);
    expect(title).toHaveLength(60);
  });

  it('copies the pictures the copied replies show and the style sheet', async () => {
    const { client } = await registerUser(ctx.app);
    await client.post('/api/preferences', { imageGeneration: true });
    const { storyId, messageId } = await startStory(client);
    const picture = (await settlePicture(client, messageId)).json();
    expect(picture.image).toMatch(/\.webp$/);
    const sheet = (await client.get(`/api/story/${storyId}/style-sheet`)).json();
    const branchId = (await client.post(`/api/story/${storyId}/branch`, { messageId })).json().storyId;
    const copy = await messagesOf(client, branchId);
    expect(copy[1].image).toBe(picture.image);
    expect((await client.get(`/api/story/${branchId}/style-sheet`)).json()).toMatchObject({
      artStyle: sheet.artStyle,
      seed: sheet.seed,
    });
  });

  it('answers 404 for another player\u2019s story, a message of another story or a set-aside one, and 400 for a bad id', async () => {
    const owner = await registerUser(ctx.app);
    const other = await registerUser(ctx.app);
    const { storyId, messageId } = await startStory(owner.client);
    const elsewhere = await startStory(owner.client, 'Another hive entirely');
    const foreign = await other.client.post(`/api/story/${storyId}/branch`, { messageId });
    expect([foreign.statusCode, foreign.json()]).toEqual([404, { code: 'NOT_FOUND', message: 'Story not found' }]);
    expect((await other.client.get(`/api/story/${storyId}/branches`)).statusCode).toBe(404);
    const wrong = await owner.client.post(`/api/story/${storyId}/branch`, { messageId: elsewhere.messageId });
    expect([wrong.statusCode, wrong.json().message]).toEqual([404, 'Message not found in this story']);
    const turn = await play(owner.client, storyId, 'I wait');
    await owner.client.post(`/api/story/${storyId}/undo`);
    expect((await owner.client.post(`/api/story/${storyId}/branch`, { messageId: turn.messageId })).statusCode).toBe(
      404,
    );
    const bad = await owner.client.post(`/api/story/${storyId}/branch`, { messageId: -1 });
    expect([bad.statusCode, bad.json().message]).toEqual([400, 'Message id must be a number']);
  });
});

describe('the memory and set-aside turns', () => {
  it('branches from an older message with the memory as it stood there, and undo into folded turns goes back a fold', async () => {
    const { client, id } = await registerUser(ctx.app);
    const { storyId } = await startStory(client);
    const turns = [];
    for (const action of ['I light the smoker', 'I count the frames', 'I taste the honey', 'I hum back'])
      turns.push(await play(client, storyId, action));
    const repos = createRepositories(ctx.database.db);
    // Two folds as the narrator would make them: through the first reply, then through the third.
    const start = (await repos.stories.findOwned(storyId, id))!;
    expect(
      await repos.stories.applyFold(
        storyId,
        { throughId: start.memoryThroughId, memory: start.memory },
        turns[0].messageId,
        'Fold one.',
        new Date(),
      ),
    ).toBe(true);
    expect(
      await repos.stories.applyFold(
        storyId,
        { throughId: turns[0].messageId, memory: 'Fold one.' },
        turns[2].messageId,
        'Fold two.',
        new Date(),
      ),
    ).toBe(true);

    const fromSecond = (await client.post(`/api/story/${storyId}/branch`, { messageId: turns[1].messageId })).json()
      .storyId;
    expect((await client.get(`/api/story/${fromSecond}/memory`)).json().summary).toBe('Fold one.');
    const fromLast = (await client.post(`/api/story/${storyId}/branch`, { messageId: turns[3].messageId })).json()
      .storyId;
    expect((await client.get(`/api/story/${fromLast}/memory`)).json().summary).toBe('Fold two.');

    // Undoing the last turn leaves the memory; undoing the third (folded) goes back to fold one.
    await client.post(`/api/story/${storyId}/undo`);
    expect((await client.get(`/api/story/${storyId}/memory`)).json().summary).toBe('Fold two.');
    await client.post(`/api/story/${storyId}/undo`);
    expect((await client.get(`/api/story/${storyId}/memory`)).json().summary).toBe('Fold one.');
    // Erasing from the first action goes back to no memory at all.
    const actions = (await messagesOf(client, storyId)).filter((m) => m.role === 'user');
    await client.post(`/api/story/${storyId}/erase`, { fromMessageId: actions[1].messageId });
    expect((await client.get(`/api/story/${storyId}/memory`)).json().summary).toBe('');
  });
});

describe('pictures of versions', () => {
  it('gives each alternative its own picture and shows the picture of the version chosen', async () => {
    const { client } = await registerUser(ctx.app);
    await client.post('/api/preferences', { imageGeneration: true });
    const { storyId, messageId } = await startStory(client);
    const first = (await settlePicture(client, messageId)).json();
    const retried = (await client.post(`/api/story/${storyId}/retry`)).json();
    expect(retried.imageMessageId).toBe(messageId);
    const second = (await settlePicture(client, messageId)).json();
    expect(second.alt).not.toBe(first.alt);
    const back = (await client.post(`/api/story/${storyId}/messages/${messageId}/select`, { version: 1 })).json();
    expect(back.image).toBe(first.image);
    expect((await client.get(`/api/story/message/${messageId}/image`)).json().alt).toBe(first.alt);
    const edited = (
      await client.request({
        method: 'PATCH',
        url: `/api/story/${storyId}/messages/${messageId}`,
        json: { content: 'A quieter opening.' },
      })
    ).json();
    expect([edited.version, edited.image]).toEqual([3, first.image]);
  });
});

describe('a normal turn', () => {
  it('runs as many statements on a story with versions as on one without', async () => {
    const { client } = await registerUser(ctx.app);
    const plain = await startStory(client, 'A plain story');
    const versioned = await startStory(client, 'A story with versions');
    await play(client, versioned.storyId, 'I begin');
    await client.post(`/api/story/${versioned.storyId}/retry`);
    await client.post(`/api/story/${versioned.storyId}/undo`);
    await play(client, plain.storyId, 'I begin');
    const pool = (ctx.database.db as unknown as { $client: { query: (...args: unknown[]) => unknown } }).$client;
    const query = pool.query.bind(pool);
    let statements = 0;
    // The picture queue's polls share the pool; they are not the turn's statements.
    const isQueuePoll = (first: unknown) =>
      (typeof first === 'string' ? first : JSON.stringify(first ?? '')).includes(`${JOB_SCHEMA}.`);
    pool.query = (...args: unknown[]) => ((statements += isQueuePoll(args[0]) ? 0 : 1), query(...args));
    try {
      const count = async (storyId: number) => {
        statements = 0;
        await play(client, storyId, 'I go on');
        return statements;
      };
      const [withVersions, without] = [await count(versioned.storyId), await count(plain.storyId)];
      expect(withVersions).toBe(without);
      expect(without).toBeGreaterThan(0);
    } finally {
      pool.query = query;
    }
  });
});
