// Turns lose nothing: the story API against a fake OpenAI-compatible server that fails like real
// providers do. The action is kept, the player gets the right error (JSON or SSE), retry answers
// it, a dropped stream saves nothing, a disconnect saves everything, one generation at a time.
import { request } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createRepositories } from '@server/db/repositories';
import { captureLog } from '@server/test/captured-log';
import { startFakeLlmServer, type FakeLlmServer } from '@server/test/fake-llm-server';
import { parseSse } from '@server/test/sse';
import { createTestApp, registerUser, type TestContext, fakeLlmConfig } from '@server/test/test-app';
import { listenAppOnLoopback } from '@server/test/listen-on-loopback';

const KEY = 'sk-secret-do-not-leak';
let fake: FakeLlmServer;
let ctx: TestContext;
const appLog = captureLog('warn');

beforeAll(async () => {
  fake = await startFakeLlmServer({ apiKey: KEY });
  const llm = fakeLlmConfig(fake, KEY, {
    LLM_TIMEOUT_MS: '1500',
  });
  ctx = await createTestApp({ llm }, { logger: appLog.logger });
});
afterAll(async () => {
  await ctx.close();
  await fake.close();
});
afterEach(() => {
  fake.queue.length = 0;
  fake.fallback = { kind: 'ok' };
});

const PREMISE = 'Captain Mirela Voss smuggles a sealed crate past the blockade';
// A failure names the narrator that failed: here the catalogue's only one, `default` (LLM_*).
const unavailable = {
  message: 'The narrator is unavailable right now. Please try again.',
  code: 'NARRATOR_UNAVAILABLE',
  narrator: 'default',
};
const timeout = {
  message: 'The narrator took too long to answer. Please try again.',
  code: 'NARRATOR_TIMEOUT',
  narrator: 'default',
};
const misconfigured = {
  message: 'The narrator is not configured correctly.',
  code: 'NARRATOR_MISCONFIGURED',
  narrator: 'default',
};

async function newStory() {
  const user = await registerUser(ctx.app);
  const res = await user.client.post('/api/story/start', { prompt: PREMISE });
  expect(res.statusCode).toBe(200);
  return { ...user, storyId: res.json().storyId as number };
}

/** Counts the database's durability flushes (the WAL fsync on PGlite) while `work` runs. */
async function flushesDuring(work: () => Promise<unknown>): Promise<number> {
  const original = ctx.database.flush;
  let count = 0;
  ctx.database.flush = () => {
    count += 1;
    return original.call(ctx.database);
  };
  try {
    await work();
  } finally {
    ctx.database.flush = original;
  }
  return count;
}

async function messagesOf(user: Awaited<ReturnType<typeof newStory>>) {
  return (await user.client.get(`/api/story/${user.storyId}/current-state`)).json().messages as Array<{
    role: string;
    content: string;
    messageId: number;
  }>;
}

describe('provider failures on continue', () => {
  it.each([
    ['a 5xx', { kind: 'status', status: 500 } as const, 502, unavailable],
    ['a hang past LLM_TIMEOUT_MS', { kind: 'hang' } as const, 504, timeout],
    ['an unknown model', { kind: 'status', status: 404 } as const, 502, misconfigured],
  ])(
    'answers %s with the right error, keeps the action, and retry answers it',
    async (_label, behaviour, status, body) => {
      const user = await newStory();
      fake.queue.push(behaviour);
      const res = await user.client.post(`/api/story/${user.storyId}/continue`, { message: 'I cut the engines' });
      expect(res.statusCode).toBe(status);
      expect(res.json()).toEqual(body);
      let messages = await messagesOf(user);
      expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
      expect(messages[2].content).toBe('I cut the engines');

      fake.queue.push({ kind: 'ok', text: 'The engines die. Silence. What now?' });
      const retried = await user.client.post(`/api/story/${user.storyId}/retry`);
      expect(retried.statusCode).toBe(200);
      expect(retried.json().message).toBe('The engines die. Silence. What now?');
      messages = await messagesOf(user);
      expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
      expect(messages.filter((m) => m.content === 'I cut the engines')).toHaveLength(1);
    },
  );

  it('says "not configured correctly" for a bad key, logs the detail and never the key', async () => {
    const user = await newStory();
    // A second app on the same database, configured with a key the provider refuses.
    const llm = fakeLlmConfig(fake, 'sk-wrong-key');
    const misconfiguredApp = await createTestApp({ llm }, { database: ctx.database, logger: appLog.logger });
    try {
      const res = await misconfiguredApp.app.inject({
        method: 'POST',
        url: `/api/story/${user.storyId}/continue`,
        headers: { 'content-type': 'application/json', cookie: `tw_session=${user.client.cookies.get('tw_session')}` },
        payload: JSON.stringify({ message: 'I hail the blockade' }),
      });
      expect(res.statusCode).toBe(502);
      expect(res.json()).toEqual(misconfigured);
      expect(res.body).not.toContain('sk-wrong-key');
      const logged = appLog.text();
      expect(logged).toMatch(/HTTP 401/);
      expect(logged).not.toContain('sk-wrong-key');
      expect(logged).not.toContain(KEY);
      expect((await messagesOf(user)).at(-1)?.content).toBe('I hail the blockade');
    } finally {
      await misconfiguredApp.app.close();
    }
  });
});

describe('streaming failures', () => {
  it('makes the kept action durable before the SSE error is sent', async () => {
    const user = await newStory();
    fake.queue.push({ kind: 'status', status: 500 });
    let events: ReturnType<typeof parseSse> = [];
    const flushes = await flushesDuring(async () => {
      const res = await user.client.request({
        method: 'POST',
        url: `/api/story/${user.storyId}/continue`,
        headers: { accept: 'text/event-stream' },
        json: { message: 'I hide the crate' },
      });
      events = parseSse(res.body);
    });
    expect(events.at(-1)).toEqual({ event: 'error', data: unavailable });
    expect(flushes).toBeGreaterThanOrEqual(1);
  });

  it('sends an SSE error event for a dropped stream and saves no half reply', async () => {
    const user = await newStory();
    fake.queue.push({ kind: 'drop', afterChunks: 3 });
    const res = await user.client.request({
      method: 'POST',
      url: `/api/story/${user.storyId}/continue`,
      headers: { accept: 'text/event-stream' },
      json: { message: 'I open the crate' },
    });
    expect(res.statusCode).toBe(200);
    const events = parseSse(res.body);
    // The three words that arrived reach the player (the first alone, the rest gathered), then the error.
    const deltas = events.filter((e) => e.event === 'delta').map((e) => (e.data as { text: string }).text);
    expect(deltas.join('')).toBe('The lantern gutters ');
    expect(events.at(-1)).toEqual({ event: 'error', data: unavailable });
    const messages = await messagesOf(user);
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    // The provider billed the partial stream; the ledger says so.
    const rows = await createRepositories(ctx.database.db).usage.listForStory(user.storyId);
    expect(rows.filter((r) => r.kind === 'turn')).toHaveLength(2);
  });

  it('names the created story when the very first reply fails, so it can be retried', async () => {
    const user = await registerUser(ctx.app);
    fake.queue.push({ kind: 'status', status: 502 });
    const res = await user.client.post('/api/story/start', { prompt: PREMISE });
    expect(res.statusCode).toBe(502);
    const body = res.json();
    expect(body).toEqual({ ...unavailable, storyId: expect.any(Number) });
    const state = (await user.client.get(`/api/story/${body.storyId}/current-state`)).json();
    expect(state.messages.map((m: { content: string }) => m.content)).toEqual([PREMISE]);
    fake.queue.push({ kind: 'ok', text: 'The blockade lights sweep the dark water. What do you do?' });
    const retried = await user.client.request({
      method: 'POST',
      url: `/api/story/${body.storyId}/retry`,
      headers: { accept: 'text/event-stream' },
      json: {},
    });
    expect(parseSse(retried.body).at(-1)).toEqual({
      event: 'done',
      data: {
        storyId: body.storyId,
        messageId: expect.any(Number),
        message: 'The blockade lights sweep the dark water. What do you do?',
        // The fake's reported usage (123 in, none cached, 45 out) at the spec's $4 a million.
        usage: { inputTokens: 123, cachedInputTokens: 0, outputTokens: 45, costUsd: 0.000672, calls: 1 },
      },
    });
  });

  it('sends the storyId in the SSE error of a failed start too', async () => {
    const user = await registerUser(ctx.app);
    fake.queue.push({ kind: 'hang' });
    const res = await user.client.request({
      method: 'POST',
      url: '/api/story/start',
      headers: { accept: 'text/event-stream' },
      json: { prompt: PREMISE },
    });
    const events = parseSse(res.body);
    expect(events).toEqual([
      { event: 'story', data: { storyId: expect.any(Number) } },
      { event: 'error', data: { ...timeout, storyId: expect.any(Number) } },
    ]);
    expect(events[1].data).toMatchObject(events[0].data as object);
  });
});

describe('one generation per story', () => {
  it('answers a second action while one is being written with 409, and never interleaves turns', async () => {
    const user = await newStory();
    fake.queue.push({ kind: 'ok', text: 'Slowly, the hatch opens. What now?', ttftMs: 150 });
    const first = user.client.post(`/api/story/${user.storyId}/continue`, { message: 'I open the hatch' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const second = await user.client.post(`/api/story/${user.storyId}/continue`, { message: 'I jump overboard' });
    expect(second.statusCode).toBe(409);
    expect(second.json()).toEqual({
      message: 'The narrator is still writing the last reply. Please wait for it to finish.',
      code: 'CONFLICT',
    });
    const retry = await user.client.post(`/api/story/${user.storyId}/retry`);
    expect(retry.statusCode).toBe(409);
    // A reload mid-reply reads the action and learns the reply is on its way.
    const during = (await user.client.get(`/api/story/${user.storyId}/current-state`)).json();
    expect(during.replying).toBe(true);
    expect(during.messages.at(-1)).toMatchObject({ role: 'user', content: 'I open the hatch' });
    expect((await first).statusCode).toBe(200);
    expect((await user.client.get(`/api/story/${user.storyId}/current-state`)).json().replying).toBe(false);
    expect((await messagesOf(user)).map((m) => m.content).slice(2)).toEqual([
      'I open the hatch',
      'Slowly, the hatch opens. What now?',
    ]);
    expect(
      (await user.client.post(`/api/story/${user.storyId}/continue`, { message: 'I jump overboard' })).statusCode,
    ).toBe(200);
  });

  it('lets a lease left by a dead process expire', async () => {
    const user = await newStory();
    const repos = createRepositories(ctx.database.db);
    expect(
      await repos.stories.acquireLease(user.storyId, ctx.clock.now, new Date(ctx.clock.now.getTime() + 60_000)),
    ).toBe(true);
    expect((await user.client.post(`/api/story/${user.storyId}/continue`, { message: 'I wait' })).statusCode).toBe(409);
    ctx.clock.advance(61_000);
    expect((await user.client.post(`/api/story/${user.storyId}/continue`, { message: 'I wait' })).statusCode).toBe(200);
    expect(
      await repos.stories.acquireLease(user.storyId, ctx.clock.now, new Date(ctx.clock.now.getTime() + 60_000)),
    ).toBe(true);
    expect(await repos.stories.releaseAllLeases()).toBeGreaterThanOrEqual(1);
    expect(await repos.stories.isGenerating(user.storyId, ctx.clock.now)).toBe(false);
  });
});

describe('disconnects', () => {
  it('finishes and saves the reply when the browser goes away mid-stream', async () => {
    const user = await newStory();
    const { port } = await listenAppOnLoopback(ctx.app);
    const text = 'The searchlight swings toward you, slow and certain. Every crewman holds his breath. What do you do?';
    fake.queue.push({ kind: 'ok', text, chunkDelayMs: 10 });
    // A raw socket, destroyed after the first event: exactly what a closed tab does.
    const firstChunk = await new Promise<string>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: `/api/story/${user.storyId}/continue`,
          headers: {
            'content-type': 'application/json',
            accept: 'text/event-stream',
            cookie: `tw_session=${user.client.cookies.get('tw_session')}`,
          },
        },
        (res) => {
          res.once('data', (chunk: Buffer) => {
            req.destroy();
            resolve(chunk.toString('utf8'));
          });
        },
      );
      req.on('error', () => {});
      req.on('close', () => reject(new Error('closed before any data')));
      req.end(JSON.stringify({ message: 'I douse the lights' }));
    });
    expect(firstChunk).toMatch(/^event: story\n/);
    await expect.poll(async () => (await messagesOf(user)).at(-1)?.content, { timeout: 5000 }).toBe(text);
    expect(await createRepositories(ctx.database.db).stories.isGenerating(user.storyId, ctx.clock.now)).toBe(false);
  });
});

describe('titles from a real model', () => {
  it('cleans the model title, records its usage, keeps it, and falls back to the premise when the call fails', async () => {
    const user = await newStory();
    fake.queue.push({
      kind: 'ok',
      text: '"The Blockade Runner."\nA tale of smuggling',
      usage: { input: 40, output: 6 },
    });
    let res: Awaited<ReturnType<typeof user.client.get>> | undefined;
    // A GET that writes (the title, its usage row) still answers only once the write is durable.
    const flushes = await flushesDuring(
      async () => (res = await user.client.get(`/api/story/${user.storyId}/generate-title`)),
    );
    expect(flushes).toBeGreaterThanOrEqual(1);
    if (!res) throw new Error('no answer');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ title: 'The Blockade Runner' });
    expect((await user.client.get(`/api/story/${user.storyId}/recover`)).json().story.title).toBe(
      'The Blockade Runner',
    );
    const rows = await createRepositories(ctx.database.db).usage.listForStory(user.storyId);
    expect(rows.filter((r) => r.kind === 'title').map((r) => [r.inputTokens, r.outputTokens])).toEqual([[40, 6]]);

    const other = await newStory();
    fake.queue.push({ kind: 'status', status: 503 });
    expect((await other.client.get(`/api/story/${other.storyId}/generate-title`)).json()).toEqual({
      title: 'Captain Mirela Voss Smuggles a Sealed Crate',
    });
    fake.queue.push({ kind: 'ok', text: `Title: ${'Endless '.repeat(12)}Night` });
    const long = (await other.client.get(`/api/story/${other.storyId}/generate-title`)).json().title;
    expect(long.length).toBeLessThanOrEqual(60);
    expect(long.startsWith('Endless Endless')).toBe(true);
  });
});
