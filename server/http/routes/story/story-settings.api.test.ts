// A story's generation settings through the API: GET and PATCH /api/story/{id}/settings,
// validated with clear 400s and the owner's only; what the provider is sent (max_tokens, temperature
// and the words the rules ask for, on the wire of a fake OpenAI-compatible server), the temperature
// clamped to Anthropic's range; copied by a branch, carried by a story file.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '@server/kernel/config';
import { startFakeLlmServer, type FakeLlmServer, type RecordedRequest } from '@server/test/fake-llm-server';
import { createTestApp, registerUser, type TestClient, type TestContext } from '@server/test/test-app';
import { proseWriter } from '@server/test/varied-prose';

const KEY = 'sk-settings';
let fake: FakeLlmServer;
let ctx: TestContext;

const env = (provider: 'openai' | 'anthropic') =>
  loadConfig({
    LLM_PROVIDER: provider,
    LLM_BASE_URL: fake.baseUrl,
    LLM_API_KEY: KEY,
    LLM_MODEL: 'fake-model',
    LLM_MAX_OUTPUT_TOKENS: '500',
    LLM_TEMPERATURE: '0.8',
  }).llm;

beforeAll(async () => {
  fake = await startFakeLlmServer({ apiKey: KEY });
  const writer = proseWriter(61);
  fake.fallback = () => ({ kind: 'ok', text: writer.reply() });
  ctx = await createTestApp({ llm: env('openai') });
});
afterAll(async () => {
  await ctx.close();
  await fake.close();
});
afterEach(() => {
  fake.queue.length = 0;
});

/** The narrator of every story here: the LLM_* one, the catalogue's only. */
const DEFAULT_NARRATOR = { narrator: 'default', narratorFellBack: false };
const PREMISE = 'A glassblower in Murano is asked to make a lamp that never goes out';
const settingsOf = (client: TestClient, storyId: number) => client.get(`/api/story/${storyId}/settings`);
const change = (client: TestClient, storyId: number, json: unknown) =>
  client.patch(`/api/story/${storyId}/settings`, json);

async function newStory(context: TestContext) {
  const player = await registerUser(context.app);
  const res = await player.client.post('/api/story/start', { prompt: PREMISE });
  expect(res.statusCode).toBe(200);
  return { ...player, storyId: res.json().storyId as number };
}

/** The turn request the provider got for the next action. */
async function turnSent(client: TestClient, storyId: number, message = 'I heat the glass'): Promise<RecordedRequest> {
  const before = fake.requests.length;
  expect((await client.post(`/api/story/${storyId}/continue`, { message })).statusCode).toBe(200);
  return fake.requests[before];
}

const systemOf = (request: RecordedRequest) =>
  request.protocol === 'openai'
    ? String(request.body.messages[0].content)
    : typeof request.body.system === 'string'
      ? request.body.system
      : (request.body.system ?? []).map((part) => part.text).join('');

describe('GET and PATCH /api/story/{id}/settings', () => {
  it("answers today's defaults for a new story, and the owner's changes from the next turn", async () => {
    const { client, storyId } = await newStory(ctx);
    expect((await settingsOf(client, storyId)).json()).toEqual({
      replyLength: 'medium',
      temperature: 0.8,
      temperatureMax: 2,
      ...DEFAULT_NARRATOR,
    });
    // Medium is the length before there was a choice: the whole cap and the same words.
    const before = await turnSent(client, storyId);
    expect(before.body).toMatchObject({ max_tokens: 500, temperature: 0.8 });
    expect(systemOf(before)).toContain('- Write one to three short paragraphs, about 80 to 180 words.');

    const res = await change(client, storyId, { replyLength: 'short', temperature: 1.234 });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      replyLength: 'short',
      temperature: 1.23,
      temperatureMax: 2,
      ...DEFAULT_NARRATOR,
    });
    expect((await settingsOf(client, storyId)).json()).toEqual(res.json());
    const short = await turnSent(client, storyId);
    expect(short.body).toMatchObject({ max_tokens: 200, temperature: 1.23 });
    expect(systemOf(short)).toContain('- Write one or two short paragraphs, about 40 to 90 words.');

    // One field changes alone.
    expect((await change(client, storyId, { replyLength: 'long' })).json()).toMatchObject({
      replyLength: 'long',
      temperature: 1.23,
    });
    const long = await turnSent(client, storyId);
    expect(long.body).toMatchObject({ max_tokens: 500, temperature: 1.23 });
    expect(systemOf(long)).toContain('- Write two to four paragraphs, about 180 to 320 words.');
    expect((await change(client, storyId, { temperature: 0 })).json().temperature).toBe(0);
    expect((await turnSent(client, storyId)).body.temperature).toBe(0);
  });

  it('refuses bad values with a clear 400 and changes nothing', async () => {
    const { client, storyId } = await newStory(ctx);
    const cases: Array<[unknown, string]> = [
      [{}, 'Send replyLength, temperature, narrator or several of them.'],
      [{ colour: 'blue' }, 'Send replyLength, temperature, narrator or several of them.'],
      [{ replyLength: 'huge' }, 'Reply length must be short, medium or long.'],
      [{ replyLength: 3 }, 'Reply length must be short, medium or long.'],
      [{ temperature: 2.5 }, 'Creativity must be a number from 0 to 2.'],
      [{ temperature: -0.1 }, 'Creativity must be a number from 0 to 2.'],
      [{ temperature: 'hot' }, 'Creativity must be a number from 0 to 2.'],
      [{ temperature: null }, 'Creativity must be a number from 0 to 2.'],
    ];
    for (const [body, message] of cases) {
      const res = await change(client, storyId, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json(), JSON.stringify(body)).toMatchObject({ code: 'VALIDATION_ERROR', message });
    }
    expect((await settingsOf(client, storyId)).json()).toEqual({
      replyLength: 'medium',
      temperature: 0.8,
      temperatureMax: 2,
      ...DEFAULT_NARRATOR,
    });
  });

  it("is the owner's only: another player's or a missing story is 404, a visitor 401", async () => {
    const { client, storyId } = await newStory(ctx);
    const other = await registerUser(ctx.app);
    for (const [who, id] of [
      [other.client, storyId],
      [client, 2_000_000_000],
    ] as const) {
      expect((await settingsOf(who, id)).statusCode).toBe(404);
      const res = await change(who, id, { replyLength: 'short' });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'NOT_FOUND', message: 'Story not found' });
    }
    expect((await ctx.app.inject({ method: 'GET', url: `/api/story/${storyId}/settings` })).statusCode).toBe(401);
    expect((await settingsOf(client, storyId)).json().replyLength).toBe('medium');
  });

  it('is copied by a branch and carried by a story file', async () => {
    const { client, storyId } = await newStory(ctx);
    await change(client, storyId, { replyLength: 'long', temperature: 1.4 });
    const opening = (await client.get(`/api/story/${storyId}/current-state`)).json().messages[1].messageId;
    const branch = await client.post(`/api/story/${storyId}/branch`, { messageId: opening });
    expect(branch.statusCode).toBe(201);
    expect((await settingsOf(client, branch.json().storyId)).json()).toMatchObject({
      replyLength: 'long',
      temperature: 1.4,
    });

    const file = await client.get(`/api/story/${storyId}/export?format=json`);
    expect(file.statusCode).toBe(200);
    expect(JSON.parse(file.body).story.settings).toEqual({
      replyLength: 'long',
      temperature: 1.4,
      narrator: 'default',
    });
    const imported = await client.request({
      method: 'POST',
      url: '/api/story/import',
      headers: { 'content-type': 'application/json' },
      json: file.body,
    });
    expect(imported.statusCode).toBe(201);
    expect((await settingsOf(client, imported.json().storyId)).json()).toMatchObject({
      replyLength: 'long',
      temperature: 1.4,
    });
  });
});

describe('on Anthropic', () => {
  it('says its highest temperature is 1 and sends a higher one as 1', async () => {
    const anthropic = await createTestApp({ llm: env('anthropic') });
    try {
      const { client, storyId } = await newStory(anthropic);
      expect((await settingsOf(client, storyId)).json()).toEqual({
        replyLength: 'medium',
        temperature: 0.8,
        temperatureMax: 1,
        ...DEFAULT_NARRATOR,
      });
      expect((await change(client, storyId, { temperature: 1.6 })).json().temperature).toBe(1.6);
      const sent = await turnSent(client, storyId);
      expect(sent.protocol).toBe('anthropic');
      expect(sent.body.temperature).toBe(1);
      expect((await change(client, storyId, { temperature: 0.35, replyLength: 'short' })).statusCode).toBe(200);
      expect((await turnSent(client, storyId)).body).toMatchObject({ temperature: 0.35, max_tokens: 200 });
    } finally {
      await anthropic.close();
    }
  });
});
