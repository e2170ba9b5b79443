// The session service over real Redis: an ending announced by one instance reaches the others.
import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { connectRedis, redisBroadcast } from '@server/kernel/redis';
import { fakeSessionRepos } from '@server/test/fake-session-repos';
import { createSessionService, SESSION_ENDINGS } from './sessions';
import { digestToken } from './bearer-tokens';

describe('session service', () => {
  it('over Redis, an ending announced by one instance reaches the others', async () => {
    const keyPrefix = `tw-test:${randomBytes(6).toString('hex')}:`;
    const log = pino({ level: 'silent' });
    const url = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
    const [a, b] = await Promise.all([connectRedis({ url, keyPrefix }, log), connectRedis({ url, keyPrefix }, log)]);
    try {
      const { repos } = fakeSessionRepos();
      const here = createSessionService(repos, () => new Date(), redisBroadcast(a, SESSION_ENDINGS));
      const there = createSessionService(repos, () => new Date(), redisBroadcast(b, SESSION_ENDINGS));
      await Promise.all([here.start(), there.start()]);
      const session = await here.create(9);
      expect(await there.resolve(session.token)).toMatchObject({ userId: 9 });
      await here.end(session.tokenHash);
      await vi.waitFor(async () => expect(await there.resolve(session.token)).toBeNull());
      expect(digestToken(session.token)).toBe(session.tokenHash);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
