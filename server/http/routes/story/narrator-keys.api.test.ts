// The catalogue's keys stay in the environment: with two narrators on two providers, each holding
// its own key, no answer and no log line holds either key, even when a provider's error echoes the
// key it was sent (a turn, a streamed turn, a title, a wrong key), and every call carried its own
// narrator's key, never the other's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureLog } from '@server/test/captured-log';
import { catalogueConfig } from '@server/test/config-env';
import { startFakeLlmServer, type FakeLlmServer } from '@server/test/fake-llm-server';
import { createTestApp, registerUser, type TestContext } from '@server/test/test-app';
import { proseWriter } from '@server/test/varied-prose';

const SWIFT_KEY = 'sk-swift-0123456789abcdef';
const DEEP_KEY = 'sk-deep-fedcba9876543210';
let swift: FakeLlmServer;
let deep: FakeLlmServer;
let ctx: TestContext;
const log = captureLog('debug');

beforeAll(async () => {
  [swift, deep] = await Promise.all([
    startFakeLlmServer({ apiKey: SWIFT_KEY }),
    startFakeLlmServer({ apiKey: DEEP_KEY }),
  ]);
  const writer = proseWriter(30);
  for (const fake of [swift, deep]) fake.fallback = () => ({ kind: 'ok', text: writer.reply() });
  const on = (fake: FakeLlmServer, id: string, apiKeyEnv: string) => ({
    id,
    label: id,
    provider: 'openai',
    baseUrl: fake.baseUrl,
    apiKeyEnv,
    model: `${id}-model`,
    contextTokens: 8192,
  });
  ctx = await createTestApp(
    catalogueConfig(
      {
        default: 'swift',
        tasks: { title: 'deep' },
        narrators: [on(swift, 'swift', 'SWIFT_KEY'), on(deep, 'deep', 'DEEP_KEY')],
      },
      { SWIFT_KEY, DEEP_KEY },
    ),
    { logger: log.logger },
  );
});
afterAll(async () => {
  await ctx.close();
  await Promise.all([swift.close(), deep.close()]);
});

/** A provider error that repeats the key it was sent, as careless providers do. */
const echoing = (key: string) => ({ kind: 'status' as const, status: 500, message: `Upstream failed for key ${key}` });

describe("the narrators' keys", () => {
  it('go only to their own provider, and appear in no answer and no log line, even when echoed back', async () => {
    const { client } = await registerUser(ctx.app);
    const answers: string[] = [];
    const started = await client.post('/api/story/start', { prompt: 'Two lighthouses signal each other' });
    answers.push(started.body);
    const storyId = started.json().storyId as number;

    swift.queue.push(echoing(SWIFT_KEY));
    const failed = await client.post(`/api/story/${storyId}/continue`, { message: 'I signal back' });
    expect(failed.statusCode).toBe(502);
    answers.push(failed.body);
    swift.queue.push(echoing(SWIFT_KEY));
    const streamed = await client.request({
      method: 'POST',
      url: `/api/story/${storyId}/retry`,
      payload: {},
      headers: { accept: 'text/event-stream' },
    });
    answers.push(streamed.body);
    expect(streamed.body).toContain('event: error');

    // The title is the deep narrator's call, with its key; its provider echoes it.
    deep.queue.push(echoing(DEEP_KEY));
    answers.push((await client.get(`/api/story/${storyId}/generate-title`)).body);
    expect((await client.patch(`/api/story/${storyId}/settings`, { narrator: 'deep' })).statusCode).toBe(200);
    deep.queue.push(echoing(DEEP_KEY));
    answers.push((await client.post(`/api/story/${storyId}/retry`)).body);
    answers.push((await client.post(`/api/story/${storyId}/retry`)).body);
    answers.push((await client.get(`/api/story/${storyId}/settings`)).body, (await client.get('/api/narrators')).body);

    const sentKey = (fake: FakeLlmServer) =>
      new Set(fake.requests.map((request) => String(request.headers.authorization)));
    expect(sentKey(swift)).toEqual(new Set([`Bearer ${SWIFT_KEY}`]));
    expect(sentKey(deep)).toEqual(new Set([`Bearer ${DEEP_KEY}`]));
    expect(swift.stats.rejected + deep.stats.rejected).toBe(0);
    // The failures were logged (so the check below reads real lines), each without its key.
    expect(log.lines.filter((line) => line.level >= 40).length).toBeGreaterThanOrEqual(3);
    for (const key of [SWIFT_KEY, DEEP_KEY]) {
      expect(log.text()).not.toContain(key);
      for (const answer of answers) expect(answer).not.toContain(key);
    }
  });
});
