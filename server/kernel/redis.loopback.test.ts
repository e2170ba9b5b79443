// The Redis connection behind REDIS_URL: start-up refuses an unreachable Redis with one clear line
// (password hidden), and pub/sub reaches every connection on the channel.
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import pino from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { connectRedis, redactUrl, RedisUnavailableError } from './redis';
import { listenOnLoopback } from '@server/test/listen-on-loopback';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const log = pino({ level: 'silent' });

async function deadPort(): Promise<number> {
  const server = createServer();
  const { port } = await listenOnLoopback(server);
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('connectRedis', () => {
  it('refuses an unreachable Redis with a message naming REDIS_URL, the address and the reason, never the password', async () => {
    const port = await deadPort();
    const attempt = connectRedis({ url: `redis://:s3cret-pass@127.0.0.1:${port}`, keyPrefix: 'tw-test:' }, log);
    await expect(attempt).rejects.toBeInstanceOf(RedisUnavailableError);
    const message = await attempt.catch((error: Error) => error.message);
    expect(message).toBe(
      `REDIS_URL: cannot reach Redis at redis://:***@127.0.0.1:${port} (connect ECONNREFUSED 127.0.0.1:${port}). Start Redis, fix REDIS_URL, or unset it to count limits in this process.`,
    );
    expect(message).not.toContain('s3cret-pass');
  });

  it('hides only the password of a URL', () => {
    expect(redactUrl('rediss://user:pw@cache.example.com:6380/2')).toBe('rediss://user:***@cache.example.com:6380/2');
    expect(redactUrl('redis://127.0.0.1:6379')).toBe('redis://127.0.0.1:6379');
  });

  it('delivers a published message to every subscribed connection, the publisher included', async () => {
    const keyPrefix = `tw-test:${randomBytes(6).toString('hex')}:`;
    const [a, b] = await Promise.all([
      connectRedis({ url: REDIS_URL, keyPrefix }, log),
      connectRedis({ url: REDIS_URL, keyPrefix }, log),
    ]);
    try {
      const heardA = vi.fn();
      const heardB = vi.fn();
      await a.subscribe(`${keyPrefix}news`, heardA);
      await b.subscribe(`${keyPrefix}news`, heardB);
      expect(await a.publish(`${keyPrefix}news`, 'share-1')).toBe(true);
      await vi.waitFor(() => {
        expect(heardA).toHaveBeenCalledWith('share-1');
        expect(heardB).toHaveBeenCalledWith('share-1');
      });
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
