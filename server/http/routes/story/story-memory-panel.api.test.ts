// The story memory panel's API: GET and PUT /api/story/{id}/memory. The premise, the memory and the
// notes the player saves are what the next turn's prompt holds; a fold running meanwhile never
// overwrites the player's memory; 409 while a reply is being written; 404 for another player.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBuiltinNarrator } from '@server/ai/llm/builtin';
import type { GenerationRequest, NarratorProvider } from '@server/ai/llm/types';
import { createRepositories } from '@server/db/repositories';
import { createTestApp, registerUser, TestClient, type TestContext } from '@server/test/test-app';

const requests: GenerationRequest[] = [];
let ctx: TestContext;
beforeAll(async () => {
  const builtin = createBuiltinNarrator({ builtinWordDelayMs: 0 });
  const spy: NarratorProvider = {
    ...builtin,
    generate: (request, onDelta) => (requests.push(request), builtin.generate(request, onDelta)),
  };
  ctx = await createTestApp({}, { narrator: spy });
});
afterAll(() => ctx.close());

const PREMISE = 'A cartographer maps a valley that moves at night';
const put = (client: TestClient, storyId: number | string, json: unknown) =>
  client.request({ method: 'PUT', url: `/api/story/${storyId}/memory`, json });

async function start(client: TestClient): Promise<number> {
  const res = await client.post('/api/story/start', { prompt: PREMISE });
  expect(res.statusCode).toBe(200);
  return res.json().storyId;
}

describe('GET /api/story/{id}/memory', () => {
  it('answers the pinned premise, an empty memory and no notes for a new story', async () => {
    const { client } = await registerUser(ctx.app);
    const storyId = await start(client);
    const res = await client.get(`/api/story/${storyId}/memory`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ premise: PREMISE, summary: '', notes: '', chunks: [] });
  });

  it('is the owner\u2019s only: another player\u2019s or a missing story is 404', async () => {
    const { client } = await registerUser(ctx.app);
    const other = await registerUser(ctx.app);
    const storyId = await start(client);
    for (const [who, id] of [
      [other.client, storyId],
      [client, 2_000_000_000],
    ] as const) {
      const res = await who.get(`/api/story/${id}/memory`);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'NOT_FOUND', message: 'Story not found' });
    }
    expect((await put(other.client, storyId, { premise: 'Mine', summary: '', notes: '' })).statusCode).toBe(404);
    expect((await client.get(`/api/story/${storyId}/memory`)).json().premise).toBe(PREMISE);
  });
});

describe("the author's note", () => {
  it('goes 3 messages from the end once the story is longer, into the action there, and the context viewer shows it', async () => {
    const { client } = await registerUser(ctx.app);
    const storyId = await start(client);
    const notes = 'Tense, short sentences; the storm keeps building.';
    expect((await put(client, storyId, { premise: PREMISE, summary: '', notes })).statusCode).toBe(200);
    for (const message of ['I climb the ridge', 'I unroll the map'])
      expect((await client.post(`/api/story/${storyId}/continue`, { message })).statusCode).toBe(200);
    requests.length = 0;
    const res = await client.post(`/api/story/${storyId}/continue`, { message: 'I mark the river' });
    expect(res.statusCode).toBe(200);
    const sent = requests.find((r) => r.task.kind === 'turn')!.messages;
    const withNote = sent.filter((m) => m.content.includes("[Author's note"));
    expect(withNote).toHaveLength(1);
    expect(sent.at(-3)).toEqual({
      role: 'user',
      content: `[Author's note: the player's direction for the story from here on; follow it]\n${notes}\n\nI unroll the map`,
    });
    expect(sent.at(-1)?.content).toBe('I mark the river');
    expect(sent[0].content).not.toContain("Author's note");

    const record = (await client.get(`/api/story/${storyId}/messages/${res.json().messageId}/context`)).json();
    const kinds = record.blocks.map((b: { kind: string; title: string }) => `${b.kind}:${b.title}`);
    const at = kinds.indexOf('authorsNote:Author’s note');
    expect(at).toBeGreaterThan(0);
    expect(kinds[at + 1]).toBe('turn:Turn 2: your action');
    expect(record.blocks[at]).toMatchObject({
      included: 'full',
      reason: 'your direction, sent 3 messages from the end, where the narrator heeds it',
    });
    expect(record.blocks[at].tokens).toBeGreaterThan(10);
  });
});

describe('PUT /api/story/{id}/memory', () => {
  it('saves all three (trimmed), and the next turn\u2019s prompt holds them', async () => {
    const { client } = await registerUser(ctx.app);
    const storyId = await start(client);
    const body = {
      premise: '  The valley moves only under a full moon.  ',
      summary: 'You met Ysolde, a ferrywoman who owes you a favour.',
      notes: ' Keep the tone eerie; Ysolde never lies. ',
    };
    const res = await put(client, storyId, body);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      premise: 'The valley moves only under a full moon.',
      summary: body.summary,
      notes: 'Keep the tone eerie; Ysolde never lies.',
      chunks: [body.summary],
    });
    expect((await client.get(`/api/story/${storyId}/memory`)).json()).toEqual(res.json());

    requests.length = 0;
    expect((await client.post(`/api/story/${storyId}/continue`, { message: 'I call for Ysolde' })).statusCode).toBe(
      200,
    );
    const turn = requests.find((r) => r.task.kind === 'turn')!;
    const head = turn.messages[0].content;
    expect(head).toContain('Story premise (set by the player at the start):\nThe valley moves only under a full moon.');
    // A story of one reply: the author's note's depth (3 messages from the end) reaches the first message.
    expect(head).toContain(
      "[Author's note: the player's direction for the story from here on; follow it]\nKeep the tone eerie; Ysolde never lies.",
    );
    expect(head).toContain(
      'Story memory (what happened earlier, summarised):\nYou met Ysolde, a ferrywoman who owes you a favour.',
    );
    expect(head).not.toContain(PREMISE);

    // Cleared notes and memory leave the prompt.
    expect((await put(client, storyId, { premise: PREMISE, summary: '', notes: '' })).statusCode).toBe(200);
    requests.length = 0;
    await client.post(`/api/story/${storyId}/continue`, { message: 'I wait' });
    const next = requests.find((r) => r.task.kind === 'turn')!.messages[0].content;
    expect(next).not.toContain("Author's note");
    expect(next).not.toContain('Story memory');
  });

  it('refuses bad fields with their message and changes nothing', async () => {
    const { client } = await registerUser(ctx.app);
    const storyId = await start(client);
    const ok = { premise: 'A premise', summary: '', notes: '' };
    for (const [json, message] of [
      [{ ...ok, premise: '   ' }, 'The premise cannot be empty.'],
      [{ ...ok, premise: 'p'.repeat(4001) }, 'The premise must be at most 4000 characters.'],
      [{ ...ok, summary: 's'.repeat(40_001) }, 'The memory must be at most 40000 characters.'],
      [{ ...ok, notes: 'n'.repeat(2001) }, 'Notes must be at most 2000 characters.'],
      [
        { premise: 'A premise', notes: null },
        'Premise, memory and notes must each be a text (leave one out to keep it as it is).',
      ],
    ] as const) {
      const res = await put(client, storyId, json);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR', message });
    }
    expect((await put(client, storyId, { ...ok, notes: 'n'.repeat(2000) })).statusCode).toBe(200);
    expect((await client.get(`/api/story/${storyId}/memory`)).json().notes).toHaveLength(2000);
  });

  it('leaves a field left out of the body as it is', async () => {
    const { client } = await registerUser(ctx.app);
    const storyId = await start(client);
    const full = { premise: 'A premise', summary: 'You found the map.', notes: 'Be brief.' };
    expect((await put(client, storyId, full)).statusCode).toBe(200);
    expect((await put(client, storyId, { notes: 'Be kind.' })).json()).toEqual({
      ...full,
      notes: 'Be kind.',
      chunks: ['You found the map.'],
    });
    expect((await put(client, storyId, { premise: 'Another premise' })).json()).toMatchObject({
      premise: 'Another premise',
      summary: 'You found the map.',
      notes: 'Be kind.',
    });
    const unchanged = await put(client, storyId, {});
    expect(unchanged.statusCode).toBe(200);
    expect(unchanged.json()).toEqual((await client.get(`/api/story/${storyId}/memory`)).json());
  });

  it('answers 409 while a reply is being written, and saves once it is done', async () => {
    const { client } = await registerUser(ctx.app);
    const storyId = await start(client);
    const until = new Date(ctx.clock.now.getTime() + 60_000);
    await ctx.database.executeSql('update stories set generating_until = $1 where id = $2', [
      until.toISOString(),
      storyId,
    ]);
    const busy = await put(client, storyId, { premise: 'Changed', summary: '', notes: '' });
    expect(busy.statusCode).toBe(409);
    expect(busy.json()).toMatchObject({
      code: 'CONFLICT',
      message: 'The narrator is still writing the last reply. Please wait for it to finish.',
    });
    expect((await client.get(`/api/story/${storyId}/memory`)).json().premise).toBe(PREMISE);
    ctx.clock.advance(61_000);
    expect((await put(client, storyId, { premise: 'Changed', summary: '', notes: '' })).statusCode).toBe(200);
  });

  it('keeps the player\u2019s memory when a fold read the old one', async () => {
    const { client } = await registerUser(ctx.app);
    const storyId = await start(client);
    const repos = createRepositories(ctx.database.db);
    const before = (await repos.stories.findOwned(storyId, (await client.get('/api/user')).json().id))!;
    expect(
      (await put(client, storyId, { premise: PREMISE, summary: 'What the player wrote.', notes: '' })).statusCode,
    ).toBe(200);
    // A fold that started from the memory as it was before the edit is discarded.
    expect(
      await repos.stories.applyFold(
        storyId,
        { throughId: before.memoryThroughId, memory: before.memory },
        99,
        'A fold of older turns.',
        new Date(),
      ),
    ).toBe(false);
    expect((await client.get(`/api/story/${storyId}/memory`)).json().summary).toBe('What the player wrote.');
    // One that read the edited memory lands.
    expect(
      await repos.stories.applyFold(
        storyId,
        { throughId: before.memoryThroughId, memory: 'What the player wrote.' },
        99,
        'Merged.',
        new Date(),
      ),
    ).toBe(true);
    expect((await client.get(`/api/story/${storyId}/memory`)).json().summary).toBe('Merged.');
  });
});
