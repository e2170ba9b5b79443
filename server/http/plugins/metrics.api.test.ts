// GET /metrics: a streamed turn against the fake narrator shows up as its provider and
// outcome, a first-word sample, tokens by the ledger's kind, the HTTP histogram by route template
// (no id in any label) and the open streams back to 0; a limiter refusal is counted by the limit's
// name; with METRICS_TOKEN a missing or wrong bearer token is 401; without it only a loopback caller
// with no proxy header is answered (everyone else: the unknown route's 404); two apps in one
// process keep separate registries.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '@server/kernel/config';
import { startFakeLlmServer, type FakeLlmServer } from '@server/test/fake-llm-server';
import { proseWriter } from '@server/test/varied-prose';
import { parseSse } from '@server/test/sse';
import { settlePicture } from '@server/test/fake-painter';
import {
  createPaintingTestApp,
  createTestApp,
  registerUser,
  TestClient,
  type TestContext,
  fakeLlmConfig,
} from '@server/test/test-app';

const KEY = 'sk-metrics-test';
const TOKEN = 'metrics-token-0123456789abcdef';
const TURNS_PER_HOUR = 3;
const PREMISE = 'A lighthouse keeper named Orla finds a door in the lamp room';
let fake: FakeLlmServer;
let ctx: TestContext;
/** A second app on the same database, with METRICS_TOKEN set: its registry is its own. */
let guarded: TestContext;

beforeAll(async () => {
  fake = await startFakeLlmServer({ apiKey: KEY });
  const llm = fakeLlmConfig(fake, KEY, {
    LLM_TIMEOUT_MS: '5000',
  });
  const narratorCallsPerHour = { turns: TURNS_PER_HOUR, sideCalls: 10 };
  ctx = await createTestApp({ llm, narratorCallsPerHour });
  guarded = await createTestApp({ llm, narratorCallsPerHour, metricsToken: TOKEN }, { database: ctx.database });
});
afterAll(async () => {
  await guarded.app.close();
  await ctx.close();
  await fake.close();
});
afterEach(() => {
  fake.queue.length = 0;
  fake.fallback = { kind: 'ok' };
});

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The exposition's samples (comment lines left out). */
function samples(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match) throw new Error(`not a sample: ${line}`);
      const labels = Object.fromEntries(
        [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
      );
      return { name: match[1], labels, value: Number(match[3]) };
    });
}

/** The sum of the samples named `name` whose labels include `labels` (0 when there are none). */
function valueOf(all: Sample[], name: string, labels: Record<string, string> = {}): number {
  return all
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);
}

async function scrape(app = ctx.app, headers: Record<string, string> = {}): Promise<{ text: string; all: Sample[] }> {
  const res = await app.inject({ method: 'GET', url: '/metrics', headers });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return { text: res.body, all: samples(res.body) };
}

const streamTurn = (client: TestClient, url: string, json: unknown) =>
  client.request({ method: 'POST', url, headers: { accept: 'text/event-stream' }, json });

describe('GET /metrics', () => {
  it('counts a streamed turn by provider and outcome, its first word, its tokens by kind, and its request by route template', async () => {
    const { client, username } = await registerUser(ctx.app);
    fake.fallback = {
      kind: 'ok',
      text: 'The door opens onto stairs going down. What do you do?',
      usage: { input: 900, output: 100 },
    };
    const before = (await scrape()).all;

    const start = await streamTurn(client, '/api/story/start', { prompt: PREMISE });
    const storyId = (parseSse(start.body)[0].data as { storyId: number }).storyId;
    // A second streamed turn held at the narrator, so the stream is seen open.
    let release!: () => void;
    fake.queue.push({
      kind: 'ok',
      text: 'Cold air rises from below.',
      usage: { input: 900, output: 100 },
      hold: new Promise<void>((r) => (release = r)),
    });
    const held = streamTurn(client, `/api/story/${storyId}/continue`, { message: 'I go down the stairs' });
    await expect.poll(async () => valueOf((await scrape()).all, 'taleweaver_open_streams'), { timeout: 5000 }).toBe(1);
    release();
    const second = await held;
    expect(parseSse(second.body).at(-1)?.event).toBe('done');
    await ctx.app.turns.idle();

    const { text, all } = await scrape();
    const delta = (name: string, labels: Record<string, string> = {}) =>
      valueOf(all, name, labels) - valueOf(before, name, labels);
    expect(delta('taleweaver_narrator_turns_total', { provider: 'openai', outcome: 'done' })).toBe(2);
    expect(delta('taleweaver_narrator_turns_total', { outcome: 'unavailable' })).toBe(0);
    expect(delta('taleweaver_narrator_first_word_seconds_count', { provider: 'openai' })).toBe(2);
    expect(delta('taleweaver_narrator_first_word_seconds_bucket', { provider: 'openai', le: '+Inf' })).toBe(2);
    expect(delta('taleweaver_narrator_first_word_seconds_sum', { provider: 'openai' })).toBeGreaterThan(0);
    // Both turns' ledger rows, as the provider reported them.
    expect(delta('taleweaver_tokens_total', { kind: 'turn', direction: 'input' })).toBe(1800);
    expect(delta('taleweaver_tokens_total', { kind: 'turn', direction: 'output' })).toBe(200);
    expect(valueOf(all, 'taleweaver_open_streams')).toBe(0);

    const continues = { name: 'taleweaver_http_request_duration_seconds_count', route: '/api/story/:storyId/continue' };
    expect(delta(continues.name, { route: continues.route, method: 'POST', status_code: '200' })).toBe(1);
    expect(delta(continues.name, { route: '/api/story/start', method: 'POST', status_code: '200' })).toBe(1);
    expect(valueOf(all, continues.name, { route: '/metrics', method: 'GET' })).toBeGreaterThan(0);
    // No id, URL or player text in any label value.
    const values = all.flatMap((s) => Object.values(s.labels));
    expect(values.filter((v) => /\d{2,}/.test(v) && !/^[\d.e+-]+$/.test(v) && !/^v?\d+\.\d+/.test(v))).toEqual([]);
    expect(text).not.toContain(`/api/story/${storyId}`);
    expect(text).not.toContain(username);
    expect(text).not.toContain('lighthouse');
    expect(text).not.toContain(KEY);

    // The process defaults, the database pool and the picture queue are there too.
    expect(text).toContain('taleweaver_process_cpu_user_seconds_total');
    expect(text).toContain('taleweaver_nodejs_eventloop_lag_p99_seconds');
    expect(
      valueOf(all, 'taleweaver_db_pool_connections', { database: ctx.database.kind, state: 'idle' }),
    ).toBeGreaterThan(0);
    expect(text).toMatch(/^taleweaver_db_pool_waiting\{database="(pglite|postgres)"\} \d+$/m);
    expect(text).toMatch(/^taleweaver_picture_jobs_waiting \d+$/m);
    expect(text).toMatch(/^taleweaver_picture_jobs_running 0$/m);
  });

  it('counts the routes no route matched under one label', async () => {
    const before = (await scrape()).all;
    await ctx.app.inject({ method: 'GET', url: '/api/no-such-thing/12345' });
    const { text, all } = await scrape();
    const name = 'taleweaver_http_request_duration_seconds_count';
    expect(
      valueOf(all, name, { route: 'unmatched', status_code: '404' }) -
        valueOf(before, name, { route: 'unmatched', status_code: '404' }),
    ).toBe(1);
    expect(text).not.toContain('12345');
  });

  it("counts a turn refused by the player's hour, by the limit's name and as the turn's outcome", async () => {
    const { client } = await registerUser(ctx.app);
    // Varied replies: one said word for word every turn would be caught by the loop guard, whose
    // second calls count among the hour's turns.
    const writer = proseWriter(43);
    fake.fallback = () => ({ kind: 'ok', text: writer.reply(), usage: { input: 10, output: 10 } });
    const before = (await scrape()).all;
    const start = await client.post('/api/story/start', { prompt: PREMISE });
    expect(start.statusCode).toBe(200);
    const { storyId } = start.json() as { storyId: number };
    for (let turn = 1; turn < TURNS_PER_HOUR; turn += 1)
      expect((await client.post(`/api/story/${storyId}/continue`, { message: `step ${turn}` })).statusCode).toBe(200);
    const refused = await client.post(`/api/story/${storyId}/continue`, { message: 'one more' });
    expect(refused.statusCode).toBe(429);

    const { all } = await scrape();
    const delta = (name: string, labels: Record<string, string>) =>
      valueOf(all, name, labels) - valueOf(before, name, labels);
    expect(delta('taleweaver_limit_refusals_total', { limit: 'turn-user' })).toBe(1);
    expect(delta('taleweaver_narrator_turns_total', { provider: 'openai', outcome: 'refused' })).toBe(1);
    expect(delta('taleweaver_narrator_turns_total', { provider: 'openai', outcome: 'done' })).toBe(TURNS_PER_HOUR);
    // Not streamed: no first word timed.
    expect(delta('taleweaver_narrator_first_word_seconds_count', { provider: 'openai' })).toBe(0);
  });
});

describe('who may read /metrics', () => {
  it('takes METRICS_TOKEN only as a long printable token, checked at start-up', () => {
    expect(loadConfig({}).metricsToken).toBeNull();
    expect(loadConfig({ METRICS_TOKEN: ` ${TOKEN} ` }).metricsToken).toBe(TOKEN);
    for (const bad of ['short', 'sixteen chars ok?', 'x'.repeat(513), `${TOKEN}\u00e9`])
      expect(() => loadConfig({ METRICS_TOKEN: bad })).toThrow(ConfigError);
  });

  it('without METRICS_TOKEN answers a loopback caller only, and no caller a proxy forwarded', async () => {
    const unknown = await ctx.app.inject({ method: 'GET', url: '/no-such-route' });
    expect(unknown.statusCode).toBe(404);
    for (const remoteAddress of ['127.0.0.1', '::1', '::ffff:127.0.0.1'])
      expect((await ctx.app.inject({ method: 'GET', url: '/metrics', remoteAddress })).statusCode).toBe(200);
    const refusals = [
      { remoteAddress: '10.0.0.7' },
      { remoteAddress: '192.168.1.20' },
      { remoteAddress: '::ffff:10.0.0.7' },
      // A proxy on this host relays a request from elsewhere.
      { remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': '203.0.113.9' } },
      { remoteAddress: '::1', headers: { forwarded: 'for=203.0.113.9' } },
    ];
    for (const caller of refusals) {
      const res = await ctx.app.inject({ method: 'GET', url: '/metrics', ...caller });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(unknown.json());
      expect(res.body).not.toContain('taleweaver_');
    }
  });

  it('without METRICS_TOKEN behind a trusted proxy answers no caller, loopback included', async () => {
    // A proxy on this host that forwards without adding its headers looks like a loopback caller.
    for (const trustProxy of [true, 1, '127.0.0.1'] as const) {
      const proxied = await createTestApp({ trustProxy }, { database: ctx.database });
      try {
        for (const remoteAddress of ['127.0.0.1', '::1']) {
          const res = await proxied.app.inject({ method: 'GET', url: '/metrics', remoteAddress });
          expect(res.statusCode, String(trustProxy)).toBe(404);
          expect(res.body).not.toContain('taleweaver_');
        }
      } finally {
        await proxied.app.close();
      }
    }
  });

  it('with METRICS_TOKEN asks every caller for it, loopback included', async () => {
    const ask = (headers: Record<string, string>, remoteAddress = '127.0.0.1') =>
      guarded.app.inject({ method: 'GET', url: '/metrics', remoteAddress, headers });
    const attempts: Array<Record<string, string>> = [
      {},
      { authorization: 'Bearer wrong-token-0123456789abcdef' },
      { authorization: `Bearer ${TOKEN}x` },
      { authorization: `Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}` },
      { authorization: TOKEN },
    ];
    for (const headers of attempts) {
      const res = await ask(headers);
      expect(res.statusCode).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer');
      expect(res.body).not.toContain('taleweaver_');
    }
    const ok = await ask({ authorization: `Bearer ${TOKEN}`, 'x-forwarded-for': '203.0.113.9' }, '10.0.0.7');
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toContain('taleweaver_narrator_turns_total');
  });

  it('keeps each app its own registry', async () => {
    // The other app played every turn above; this one, on the same database and in this process, none.
    const mine = (await scrape(guarded.app, { authorization: `Bearer ${TOKEN}` })).all;
    const theirs = (await scrape()).all;
    expect(valueOf(theirs, 'taleweaver_narrator_turns_total', { outcome: 'done' })).toBeGreaterThan(0);
    expect(valueOf(mine, 'taleweaver_narrator_turns_total')).toBe(0);
    expect(valueOf(mine, 'taleweaver_tokens_total')).toBe(0);
  });
});

describe('picture jobs', () => {
  it('counts a painted picture by its image tokens and a failed one, with none left running or waiting', async () => {
    const painting = await createPaintingTestApp();
    try {
      const { client } = await registerUser(painting.app);
      const picture = async (messageId: number, storyId: number, content: string) => {
        const asked = await client.post(`/api/story/message/${messageId}/generate-image`, { content, storyId });
        expect(asked.statusCode).toBe(202);
        return settlePicture(client, messageId);
      };
      const started = await client.post('/api/story/start', { prompt: PREMISE });
      const first = started.json() as { storyId: number; messageId: number; message: string };
      painting.painter.queue.push({ kind: 'ok', imageTokens: 1234 });
      expect((await picture(first.messageId, first.storyId, first.message)).statusCode).toBe(200);
      const next = (await client.post(`/api/story/${first.storyId}/continue`, { message: 'I light the lamp' })).json();
      painting.painter.queue.push({ kind: 'fail', failure: 'misconfigured' });
      expect((await picture(next.messageId, first.storyId, next.message)).statusCode).toBe(422);

      const { all } = await scrape(painting.app);
      expect(valueOf(all, 'taleweaver_tokens_total', { kind: 'image', direction: 'image' })).toBe(1234);
      expect(valueOf(all, 'taleweaver_picture_jobs_failed_total')).toBe(1);
      await expect
        .poll(async () => valueOf((await scrape(painting.app)).all, 'taleweaver_picture_jobs_running'))
        .toBe(0);
      expect(valueOf(all, 'taleweaver_picture_jobs_waiting')).toBe(0);
    } finally {
      await painting.close();
    }
  });
});
