// The style sheet's narrator calls are paid calls: reading the sheet fills it once and
// never asks again, an edit asks nothing, a GET another site's page could have made asks nothing and
// keeps nothing, and a spent allowance falls back to the offline heuristics. Counted from what the
// fake OpenAI-compatible narrator was sent.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createRepositories } from '@server/db/repositories';
import { STYLE_SYSTEM_PROMPT } from '@server/domains/images/style-sheet';
import { startFakeLlmServer, type FakeLlmServer, type RecordedRequest } from '@server/test/fake-llm-server';
import { registerUser, type TestContext, createPaintingTestApp, fakeLlmConfig } from '@server/test/test-app';

const KEY = 'sk-style-test';
const LIMIT = 20_000;
let fake: FakeLlmServer;
let ctx: TestContext;

const OPENING =
  'Captain Ilsa Marrow waits at the lighthouse door while Brother Aldous counts the ships. The lamp above you flickers. What do you do?';
const isStyleCall = (r: RecordedRequest) =>
  r.body.messages.some((m) => m.role === 'system' && m.content === STYLE_SYSTEM_PROMPT);
const styleCalls = () => fake.requests.filter(isStyleCall).length;

beforeAll(async () => {
  fake = await startFakeLlmServer({ apiKey: KEY });
  // The style call answers no characters: once that made every read of the sheet ask again.
  fake.fallback = (request) =>
    isStyleCall(request)
      ? {
          kind: 'ok',
          text: '{"player": "a keeper in a grey coat", "characters": []}',
          usage: { input: 200, output: 20 },
        }
      : { kind: 'ok', text: OPENING, usage: { input: 300, output: 40 } };
  const llm = fakeLlmConfig(fake, KEY);
  ctx = await createPaintingTestApp({ llm, userMonthlyTokenLimit: LIMIT });
});
afterAll(async () => {
  await ctx.close();
  await fake.close();
});
afterEach(() => {
  fake.queue.length = 0;
});

async function newStory() {
  const user = await registerUser(ctx.app);
  const { storyId } = (
    await user.client.post('/api/story/start', { prompt: 'A lighthouse keeper on an island of wreckers' })
  ).json();
  return { ...user, storyId: storyId as number, url: `/api/story/${storyId}/style-sheet` };
}

describe('the style sheet as a paid call', () => {
  it('fills on the first read with one call; 40 rounds of an emptied sheet and a read ask nothing more', async () => {
    const { client, url } = await newStory();
    const before = styleCalls();
    const first = (await client.get(url)).json();
    expect(first.player).toBe('a keeper in a grey coat');
    expect(styleCalls()).toBe(before + 1);
    for (let round = 0; round < 40; round += 1) {
      expect(
        (
          await client.request({
            method: 'PUT',
            url,
            json: { artStyle: first.artStyle, player: first.player, characters: [] },
          })
        ).statusCode,
      ).toBe(200);
      expect((await client.get(url)).json().characters).toEqual([]);
    }
    expect(styleCalls()).toBe(before + 1);
  });

  it("answers 40 cross-site reads without a call or a write, and the app's own first read then fills it", async () => {
    const { client, url, storyId } = await newStory();
    const before = styleCalls();
    for (let read = 0; read < 40; read += 1) {
      const foreign = await client.request({ method: 'GET', url, headers: { 'sec-fetch-site': 'cross-site' } });
      expect(foreign.statusCode).toBe(200);
      expect(foreign.json().artStyle.length).toBeGreaterThan(10);
    }
    expect(styleCalls()).toBe(before);
    expect(await createRepositories(ctx.database.db).images.findVisuals(storyId)).toBeNull();
    expect((await client.get(url)).json().player).toBe('a keeper in a grey coat');
    expect(styleCalls()).toBe(before + 1);
  });

  it('starts from an edit made before any read, without asking the narrator', async () => {
    const { client, url } = await newStory();
    const before = styleCalls();
    const edited = {
      artStyle: 'woodcut, black and white',
      player: 'a one-eyed keeper',
      characters: [{ name: 'Brother Aldous', face: 'round', hair: 'tonsured', clothes: 'brown habit' }],
    };
    const saved = await client.request({ method: 'PUT', url, json: edited });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject(edited);
    expect((await client.get(url)).json()).toMatchObject({ ...edited, seed: saved.json().seed });
    expect(styleCalls()).toBe(before);
  });

  it('falls back to the offline heuristics, without a call, once the month is spent', async () => {
    const { client, url, id, storyId } = await newStory();
    await createRepositories(ctx.database.db).usage.record({
      userId: id,
      storyId,
      kind: 'turn',
      provider: 'openai',
      model: 'fake-gpt',
      inputTokens: LIMIT,
      createdAt: ctx.clock.now,
    });
    const before = styleCalls();
    const sheet = await client.get(url);
    expect(sheet.statusCode).toBe(200);
    expect(sheet.json().player.length).toBeGreaterThan(10);
    expect(sheet.json().player).not.toBe('a keeper in a grey coat');
    expect(styleCalls()).toBe(before);
  });
});
