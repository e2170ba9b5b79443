// What a draining instance answers (kernel/drain.ts; the real SIGTERM is in server/main-drain.process.test.ts):
// readiness 503, reads as usual, and every new paid call (a turn, a new story, a picture) 503 with
// Retry-After, nothing written for it.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createDrain } from '@server/kernel/drain';
import { createPaintingTestApp, registerUser, type TestContext } from '@server/test/test-app';

const drain = createDrain();
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createPaintingTestApp({}, { drain });
});
afterAll(() => ctx.close());

const RESTARTING = { message: 'Taleweaver is restarting. Please try again in a few seconds.', code: 'UNAVAILABLE' };

it('answers reads and refuses new paid work with 503 and Retry-After once the drain begins', async () => {
  const { client } = await registerUser(ctx.app);
  const started = await client.post('/api/story/start', { prompt: 'A ferryman who never takes payment' });
  expect(started.statusCode).toBe(200);
  const { storyId, messageId } = started.json() as { storyId: number; messageId: number };
  expect((await ctx.app.inject({ url: '/readyz' })).statusCode).toBe(200);

  // Nothing in flight: the drain ends at once (the picture workers stop).
  expect(await drain.drain(5000)).toBe(true);

  const ready = await ctx.app.inject({ url: '/readyz' });
  expect(ready.statusCode).toBe(503);
  expect(ready.json()).toEqual({ status: 'draining', database: ctx.database.kind });
  expect((await ctx.app.inject({ url: '/healthz' })).statusCode).toBe(200);
  expect((await client.get('/api/user')).statusCode).toBe(200);
  const before = (await client.get(`/api/story/${storyId}/current-state`)).json() as { messages: unknown[] };

  for (const [url, body] of [
    [`/api/story/${storyId}/continue`, { message: 'I pay him anyway' }],
    ['/api/story/start', { prompt: 'Another story' }],
    [`/api/story/message/${messageId}/generate-image`, { content: 'The river at dusk', storyId }],
  ] as const) {
    const refused = await client.post(url, body);
    expect(refused.statusCode, url).toBe(503);
    expect(refused.headers['retry-after']).toBe('5');
    expect(refused.json()).toEqual(RESTARTING);
  }
  const after = (await client.get(`/api/story/${storyId}/current-state`)).json() as { messages: unknown[] };
  expect(after.messages).toEqual(before.messages);
  expect((await client.get('/api/stories')).statusCode).toBe(200);
});
