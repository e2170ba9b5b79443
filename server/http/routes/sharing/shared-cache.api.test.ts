// Public shared reads from memory: a snapshot once read is answered (200 or 304, plain or in the
// brotli/gzip bytes made once) with the database closed, and not logged one by one; a stopped share
// is the spec's 404 at once on the instance that stopped it, at once on every instance with
// REDIS_URL, and within the entry's minute on instances without Redis.
import { randomBytes } from 'node:crypto';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { captureLog } from '@server/test/captured-log';
import { createTestApp, registerUser, TestClient, type TestContext } from '@server/test/test-app';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const NOT_FOUND = { message: 'Story not found or has been removed by its creator', code: 'NOT_FOUND' };
const keyPrefix = `tw-test:${randomBytes(6).toString('hex')}:`;

afterAll(async () => {
  const redis = new Redis(REDIS_URL);
  const keys = await redis.keys(`${keyPrefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
});

async function sharedStory(ctx: TestContext, turns = 1) {
  const owner = await registerUser(ctx.app);
  const { storyId } = (
    await owner.client.post('/api/story/start', { prompt: 'A clockmaker hides a door inside a grandfather clock' })
  ).json();
  for (let turn = 1; turn < turns; turn += 1)
    await owner.client.post(`/api/story/${storyId}/continue`, { message: 'I wind the clock' });
  const share = async () =>
    (await owner.client.post(`/api/story/${storyId}/share`, { title: 'The Clock Door' })).json().shareId as string;
  return {
    owner,
    share,
    stop: (shareId: string) => owner.client.request({ method: 'DELETE', url: `/api/shared/${shareId}`, json: {} }),
  };
}

/** Two instances over one database (pictures off: one job queue per database is enough here). */
async function twoInstances(overrides: Parameters<typeof createTestApp>[0] = {}) {
  const a = await createTestApp(overrides, { painter: null });
  const b = await createTestApp(overrides, { database: a.database, painter: null });
  return {
    a,
    b,
    close: async () => {
      await b.app.close();
      await a.close();
    },
  };
}

describe('a shared snapshot once read', () => {
  it('is answered, 200 and 304 alike, without the database', async () => {
    const ctx = await createTestApp({}, { painter: null });
    try {
      const { share } = await sharedStory(ctx);
      const [shareId, unread] = [await share(), await share()];
      const reader = new TestClient(ctx.app, '10.20.0.1');
      const first = await reader.get(`/api/shared/${shareId}`);
      expect(first.statusCode).toBe(200);
      const etag = String(first.headers.etag);

      await ctx.database.close();
      const revalidated = await reader.request({
        method: 'GET',
        url: `/api/shared/${shareId}`,
        headers: { 'if-none-match': etag },
      });
      expect([revalidated.statusCode, revalidated.body, revalidated.headers.etag]).toEqual([304, '', etag]);
      expect(revalidated.headers['cache-control']).toBe('public, max-age=60');
      const again = await reader.get(`/api/shared/${shareId}`);
      expect(again.statusCode).toBe(200);
      expect(again.body).toBe(first.body);
      expect(again.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(again.headers['content-length']).toBe(String(Buffer.byteLength(first.body)));
      // The database really is gone: a snapshot nobody has read yet cannot be answered.
      expect((await reader.get(`/api/shared/${unread}`)).statusCode).toBe(500);
    } finally {
      await ctx.app.close();
    }
  });

  it('is sent in the encoding the reader accepts, from bytes compressed once, with one ETag for all', async () => {
    const ctx = await createTestApp({}, { painter: null });
    try {
      const { share } = await sharedStory(ctx, 3);
      const shareId = await share();
      const reader = new TestClient(ctx.app, '10.20.0.5');
      const get = (acceptEncoding?: string, extra: Record<string, string> = {}) =>
        reader.request({
          method: 'GET',
          url: `/api/shared/${shareId}`,
          headers: { ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}), ...extra },
        });
      const plain = await get();
      expect(plain.rawPayload.length).toBeGreaterThan(1024);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.headers.vary).toBe('accept-encoding');
      await ctx.database.close();
      const br = await get('gzip, deflate, br');
      expect([br.headers['content-encoding'], br.headers.vary, br.headers.etag]).toEqual([
        'br',
        'accept-encoding',
        plain.headers.etag,
      ]);
      expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
      expect(Number(br.headers['content-length'])).toBe(br.rawPayload.length);
      expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
      const gzip = await get('gzip;q=1, br;q=0.5');
      expect(gzip.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gzip.rawPayload).toString()).toBe(plain.body);
      for (const none of ['identity', 'br;q=0, gzip;q=0', '*;q=0'])
        expect((await get(none)).headers['content-encoding'], none).toBeUndefined();
      const revalidated = await get('br', { 'if-none-match': String(plain.headers.etag) });
      expect([revalidated.statusCode, revalidated.headers['content-encoding'], revalidated.body]).toEqual([
        304,
        undefined,
        '',
      ]);
    } finally {
      await ctx.app.close();
    }
  });

  it('is sent plain to everyone with COMPRESSION=false', async () => {
    const ctx = await createTestApp({ compression: false }, { painter: null });
    try {
      const res = await new TestClient(ctx.app, '10.20.0.6').request({
        method: 'GET',
        url: '/api/shared/test',
        headers: { 'accept-encoding': 'br, gzip' },
      });
      expect([res.statusCode, res.headers['content-encoding'], res.headers.vary]).toEqual([200, undefined, undefined]);
      expect(res.json().shareId).toBe('test');
    } finally {
      await ctx.close();
    }
  });

  it('is not logged one by one at info level, while other requests are', async () => {
    const appLog = captureLog('info');
    const ctx = await createTestApp({}, { painter: null, logger: appLog.logger });
    try {
      const reader = new TestClient(ctx.app, '10.20.0.7');
      expect((await reader.get('/api/shared/test')).statusCode).toBe(200);
      expect((await reader.get('/api/features')).statusCode).toBe(200);
      const logged = appLog.text();
      expect(logged).toContain('/api/features');
      expect(logged).not.toContain('/api/shared/test');
    } finally {
      await ctx.close();
    }
  });

  it('is the spec 404 as soon as its owner stops sharing, even to a reader holding its ETag', async () => {
    const ctx = await createTestApp({}, { painter: null });
    try {
      const { share, stop } = await sharedStory(ctx);
      const shareId = await share();
      const reader = new TestClient(ctx.app, '10.20.0.2');
      const etag = String((await reader.get(`/api/shared/${shareId}`)).headers.etag);
      expect(
        (await reader.request({ method: 'GET', url: `/api/shared/${shareId}`, headers: { 'if-none-match': etag } }))
          .statusCode,
      ).toBe(304);
      expect((await stop(shareId)).statusCode).toBe(200);
      const gone = await reader.request({
        method: 'GET',
        url: `/api/shared/${shareId}`,
        headers: { 'if-none-match': etag },
      });
      expect([gone.statusCode, gone.json()]).toEqual([404, NOT_FOUND]);
      expect(gone.headers.etag).toBeUndefined();
    } finally {
      await ctx.close();
    }
  });
});

describe('a stopped share on other instances', () => {
  it('without Redis: gone from another instance once its copy is a minute old', async () => {
    const { a, b, close } = await twoInstances();
    try {
      const { share, stop } = await sharedStory(a);
      const shareId = await share();
      const readerB = new TestClient(b.app, '10.20.0.3');
      expect((await readerB.get(`/api/shared/${shareId}`)).statusCode).toBe(200);
      expect((await stop(shareId)).statusCode).toBe(200);
      expect((await new TestClient(a.app, '10.20.0.3').get(`/api/shared/${shareId}`)).statusCode).toBe(404);
      // The documented bound: B may serve its copy until it expires, as browsers may keep theirs (max-age=60).
      expect((await readerB.get(`/api/shared/${shareId}`)).statusCode).toBe(200);
      b.clock.advance(60_000);
      const gone = await readerB.get(`/api/shared/${shareId}`);
      expect([gone.statusCode, gone.json()]).toEqual([404, NOT_FOUND]);
    } finally {
      await close();
    }
  });

  it('with REDIS_URL: gone from every instance at once', async () => {
    const { a, b, close } = await twoInstances({ redis: { url: REDIS_URL, keyPrefix } });
    try {
      const { share, stop } = await sharedStory(a);
      const shareId = await share();
      const readerB = new TestClient(b.app, '10.20.0.4');
      expect((await readerB.get(`/api/shared/${shareId}`)).statusCode).toBe(200);
      expect((await stop(shareId)).statusCode).toBe(200);
      // The news travels over pub/sub: no clock moves, B only has to hear it.
      await vi.waitFor(async () => expect((await readerB.get(`/api/shared/${shareId}`)).statusCode).toBe(404));
      expect((await readerB.get(`/api/shared/${shareId}`)).json()).toEqual(NOT_FOUND);
    } finally {
      await close();
    }
  });
});
