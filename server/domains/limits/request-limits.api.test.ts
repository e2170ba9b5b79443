// The request limits end to end: captcha questions and shared reads per IP (an IPv6 /64 counting as
// one), pictures per player, each refused with its own 429 message and Retry-After and none of them
// written to the database; with REDIS_URL two instances over one database share every count; an
// unreachable Redis stops start-up with one clear line.
import { randomBytes } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '@server/app';
import { createRepositories } from '@server/db/repositories';
import { RedisUnavailableError } from '@server/kernel/redis';
import {
  createTestApp,
  openTestDatabase,
  registerUser,
  TestClient,
  testConfig,
  createPaintingTestApp,
} from '@server/test/test-app';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const keyPrefix = `tw-test:${randomBytes(6).toString('hex')}:`;
const CAPTCHAS = { message: 'Too many captcha requests. Please wait a minute and try again.', code: 'RATE_LIMITED' };
const READS = { message: 'Too many shared story requests. Please wait a minute and try again.', code: 'RATE_LIMITED' };
const limits = (perMinute: number) => ({
  rateLimits: { loginMaxFailures: 10, loginWindowMs: 900_000, registerPerHour: 30, captchaPerMinute: perMinute },
  sharedReadsPerMinute: perMinute,
});

afterAll(async () => {
  const redis = new Redis(REDIS_URL);
  const keys = await redis.keys(`${keyPrefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
});

async function statuses(client: TestClient, url: string, times: number): Promise<number[]> {
  const answers: number[] = [];
  for (let i = 0; i < times; i += 1) answers.push((await client.get(url)).statusCode);
  return answers;
}

describe('per IP, in this process', () => {
  it('refuses the captcha and shared reads past the limit with their messages and Retry-After, writing nothing to the database', async () => {
    const ctx = await createTestApp(limits(2), { painter: null });
    try {
      const reader = new TestClient(ctx.app, '10.30.0.1');
      expect(await statuses(reader, '/api/captcha', 2)).toEqual([200, 200]);
      const captcha = await reader.get('/api/captcha');
      expect([captcha.statusCode, captcha.json(), captcha.headers['retry-after']]).toEqual([429, CAPTCHAS, '60']);
      expect(await statuses(reader, '/api/shared/test', 2)).toEqual([200, 200]);
      const read = await reader.get('/api/shared/test');
      expect([read.statusCode, read.json(), read.headers['retry-after']]).toEqual([429, READS, '60']);

      // Another address is untouched by the first one's count.
      const neighbour = new TestClient(ctx.app, '10.30.0.2');
      expect([
        (await neighbour.get('/api/captcha')).statusCode,
        (await neighbour.get('/api/shared/test')).statusCode,
      ]).toEqual([200, 200]);

      const rateLimits = createRepositories(ctx.database.db).rateLimits;
      const since = new Date(0);
      expect(await rateLimits.countSince('captcha-ip', '10.30.0.1', since)).toBe(0);
      expect(await rateLimits.countSince('shared-read-ip', '10.30.0.1', since)).toBe(0);
    } finally {
      await ctx.close();
    }
  });

  it('counts an IPv6 /64 as one address', async () => {
    const ctx = await createTestApp(limits(2), { painter: null });
    try {
      expect(await statuses(new TestClient(ctx.app, '2001:db8:5:6::1'), '/api/captcha', 2)).toEqual([200, 200]);
      expect(await statuses(new TestClient(ctx.app, '2001:db8:5:6:abcd::2'), '/api/captcha', 1)).toEqual([429]);
      expect(await statuses(new TestClient(ctx.app, '2001:db8:5:7::1'), '/api/captcha', 1)).toEqual([200]);
    } finally {
      await ctx.close();
    }
  });
});

describe('per player', () => {
  it('refuses one player past IMAGE_MAX_PER_HOUR and leaves another untouched', async () => {
    const base = testConfig();
    const ctx = await createPaintingTestApp({ image: { ...base.image, maxPerHour: 1 } });
    try {
      const ask = async (client: TestClient, storyId: number, messageId: number) =>
        client.post(`/api/story/message/${messageId}/generate-image`, { content: 'scene', storyId });
      const first = await registerUser(ctx.app);
      const story = (
        await first.client.post('/api/story/start', { prompt: 'A ferryman counts the coins of the drowned' })
      ).json();
      const next = (
        await first.client.post(`/api/story/${story.storyId}/continue`, { message: 'I take the oar' })
      ).json();
      expect((await ask(first.client, story.storyId, story.messageId)).statusCode).toBe(202);
      const refused = await ask(first.client, story.storyId, next.messageId);
      expect([refused.statusCode, refused.json().message, refused.headers['retry-after']]).toEqual([
        429,
        'You have asked for too many pictures this hour. Please wait a little before asking for another.',
        '600',
      ]);

      const second = await registerUser(ctx.app);
      const theirs = (
        await second.client.post('/api/story/start', { prompt: 'A ferryman counts the coins of the drowned' })
      ).json();
      expect((await ask(second.client, theirs.storyId, theirs.messageId)).statusCode).toBe(202);
    } finally {
      await ctx.close();
    }
  });
});

describe('with REDIS_URL', () => {
  it('shares the per-IP counts between two instances over one database', async () => {
    const a = await createTestApp({ ...limits(3), redis: { url: REDIS_URL, keyPrefix } }, { painter: null });
    const b = await createTestApp(
      { ...limits(3), redis: { url: REDIS_URL, keyPrefix } },
      { database: a.database, painter: null },
    );
    try {
      for (const [url, refusal] of [
        ['/api/captcha', CAPTCHAS],
        ['/api/shared/test', READS],
      ] as const) {
        const onA = new TestClient(a.app, '10.30.1.1');
        const onB = new TestClient(b.app, '10.30.1.1');
        expect([
          (await onA.get(url)).statusCode,
          (await onB.get(url)).statusCode,
          (await onA.get(url)).statusCode,
        ]).toEqual([200, 200, 200]);
        const refused = await onB.get(url);
        expect([refused.statusCode, refused.json(), refused.headers['retry-after']]).toEqual([429, refusal, '60']);
        expect((await onA.get(url)).statusCode).toBe(429);
        expect((await new TestClient(b.app, '10.30.1.2').get(url)).statusCode).toBe(200);
      }
    } finally {
      await b.app.close();
      await a.close();
    }
  });

  it('refuses to start when Redis cannot be reached, naming REDIS_URL', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    const database = await openTestDatabase();
    try {
      const starting = buildApp(testConfig({ redis: { url: `redis://127.0.0.1:${port}`, keyPrefix } }), {
        database,
        logger: false,
      });
      await expect(starting).rejects.toBeInstanceOf(RedisUnavailableError);
      await expect(starting).rejects.toThrow(
        `REDIS_URL: cannot reach Redis at redis://127.0.0.1:${port} (connect ECONNREFUSED 127.0.0.1:${port})`,
      );
    } finally {
      await database.close();
    }
  });
});
