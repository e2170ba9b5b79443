// Request ids and the one log line a request: every answer names its request, the id a trusted
// proxy sent is kept (and only then, and only when it is a plain token), and the log holds one line
// per request carrying that id, where Fastify wrote two.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOG_REDACT } from '@server/app';
import { captureLog } from '@server/test/captured-log';
import { contentText, startFakeLlmServer, type FakeLlmServer } from '@server/test/fake-llm-server';
import { proseWriter } from '@server/test/varied-prose';
import { createTestApp, registerUser, TestClient, type TestContext, fakeLlmConfig } from '@server/test/test-app';

describe('without a trusted proxy', () => {
  let ctx: TestContext;
  const appLog = captureLog('info', { redact: LOG_REDACT });
  beforeAll(async () => {
    ctx = await createTestApp({}, { logger: appLog.logger });
  });
  afterAll(() => ctx.close());

  it('gives every answer a new id of its own and ignores one sent by the caller', async () => {
    const anonymous = new TestClient(ctx.app);
    const first = await anonymous.get('/api/user');
    const second = await ctx.app.inject({ url: '/healthz', headers: { 'x-request-id': 'forged-by-a-player' } });
    const ids = [first.headers['x-request-id'], second.headers['x-request-id']];
    for (const id of ids) expect(id).toMatch(/^[\w-]{8}-[0-9a-z]+$/);
    expect(ids[0]).not.toBe(ids[1]);
    expect(ids).not.toContain('forged-by-a-player');
  });

  it('writes one line per request, with its id, method, route, status and time', async () => {
    appLog.clear();
    const { client } = await registerUser(ctx.app);
    const answer = await client.get('/api/user');
    const id = answer.headers['x-request-id'];
    const mine = appLog.lines.filter((line) => line.reqId === id);
    expect(mine).toEqual([
      expect.objectContaining({ level: 30, msg: 'GET /api/user 200', method: 'GET', url: '/api/user', status: 200 }),
    ]);
    expect(mine[0].ms).toEqual(expect.any(Number));
    expect(appLog.lines.some((line) => line.msg === 'incoming request' || line.msg === 'request completed')).toBe(
      false,
    );
    // Registration's requests each wrote their one line too.
    expect(appLog.lines.filter((line) => line.msg === 'POST /api/register 201')).toHaveLength(1);
  });

  it('answers a 404 with an id too', async () => {
    const missing = await ctx.app.inject({ url: '/api/no-such-route' });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['x-request-id']).toMatch(/^[\w-]{8}-[0-9a-z]+$/);
  });
});

describe('behind a trusted proxy (TRUST_PROXY)', () => {
  let ctx: TestContext;
  const appLog = captureLog('info', { redact: LOG_REDACT });
  beforeAll(async () => {
    ctx = await createTestApp({ trustProxy: true }, { logger: appLog.logger });
  });
  afterAll(() => ctx.close());

  it("keeps the proxy's id, on the answer and the log line", async () => {
    const proxyId = '7f3c9a2e-55b1-4c0e-9d2a-1b2c3d4e5f60';
    const answer = await ctx.app.inject({ url: '/healthz', headers: { 'x-request-id': proxyId } });
    expect(answer.headers['x-request-id']).toBe(proxyId);
    expect(appLog.lines.filter((line) => line.reqId === proxyId).map((line) => line.msg)).toEqual(['GET /healthz 200']);
  });

  it('makes its own id when the one sent is not a plain token', async () => {
    for (const sent of ['two words', 'a'.repeat(129), '"quoted"', '']) {
      const answer = await ctx.app.inject({ url: '/healthz', headers: { 'x-request-id': sent } });
      expect(answer.headers['x-request-id']).toMatch(/^[\w-]{8}-[0-9a-z]+$/);
    }
  });
});

describe("a service's lines during a request", () => {
  const KEY = 'sk-request-log-test';
  let fake: FakeLlmServer;
  let ctx: TestContext;
  const appLog = captureLog('info', { redact: LOG_REDACT });
  beforeAll(async () => {
    fake = await startFakeLlmServer({ apiKey: KEY });
    const llm = fakeLlmConfig(fake, KEY, {
      LLM_TIMEOUT_MS: '5000',
    });
    ctx = await createTestApp({ llm }, { logger: appLog.logger });
  });
  afterAll(async () => {
    await ctx.close();
    await fake.close();
  });

  it("carry the request's id: a narrator failure in a turn, streamed or not", async () => {
    const { client } = await registerUser(ctx.app);
    fake.queue.push({ kind: 'ok', text: 'The harbour lights blink out one by one. What do you do?' });
    const started = await client.post('/api/story/start', { prompt: 'A harbour at the end of the world' });
    expect(started.statusCode).toBe(200);
    const { storyId } = started.json() as { storyId: number };
    for (const headers of [{}, { accept: 'text/event-stream' }]) {
      fake.queue.push({ kind: 'status', status: 500, message: 'upstream fell over' });
      const turn = await client.request({
        method: 'POST',
        url: `/api/story/${storyId}/continue`,
        json: { message: 'I light a lamp' },
        headers,
      });
      const id = turn.headers['x-request-id'];
      const failure = appLog.lines.find(
        (line) => line.msg === 'narrator call failed; the action is kept for a retry' && line.reqId === id,
      );
      expect(failure, JSON.stringify(headers)).toBeDefined();
      appLog.clear();
    }
  });
});

describe('a background memory fold', () => {
  const KEY = 'sk-request-log-fold';
  let fake: FakeLlmServer;
  let ctx: TestContext;
  const appLog = captureLog('info', { redact: LOG_REDACT });
  beforeAll(async () => {
    fake = await startFakeLlmServer({ apiKey: KEY });
    const writer = proseWriter(7);
    // Every summary call fails; every turn answers a long, varied reply, so a small window soon needs a fold.
    fake.fallback = (request) =>
      contentText(request.body.messages[0]?.content).startsWith('You maintain the memory')
        ? { kind: 'status', status: 500, message: 'the summariser fell over' }
        : { kind: 'ok', text: writer.reply(12) };
    const llm = fakeLlmConfig(fake, KEY, { LLM_CONTEXT_TOKENS: '4096', LLM_MAX_OUTPUT_TOKENS: '500' });
    ctx = await createTestApp({ llm }, { logger: appLog.logger });
  });
  afterAll(async () => {
    await ctx.close();
    await fake.close();
  });

  it("logs its failure with the id of the turn that set it off, after that turn's answer", async () => {
    const { client } = await registerUser(ctx.app);
    const started = await client.post('/api/story/start', { prompt: 'A lighthouse keeper counts the ships' });
    expect(started.statusCode).toBe(200);
    const { storyId } = started.json() as { storyId: number };
    const turnIds: string[] = [];
    const failed = () =>
      appLog.lines.find((line) => line.msg === 'story memory fold failed; the turns stay verbatim for now');
    for (let turn = 1; turn <= 40 && !failed(); turn += 1) {
      const res = await client.post(`/api/story/${storyId}/continue`, { message: `I count ship number ${turn}` });
      expect(res.statusCode).toBe(200);
      turnIds.push(String(res.headers['x-request-id']));
      await ctx.app.turns.idle();
    }
    const failure = failed();
    expect(failure).toBeDefined();
    expect(failure!.reqId).toBe(turnIds.at(-1));
    expect(failure!.storyId).toBe(storyId);
  });
});
