// Session resolution with its short memory: a session is read from the database once per
// SESSION_CACHE_MS, not once per request; expiry, logout and password changes still end it at once,
// on this instance and (over Redis) on the others; the sliding expiry still writes once a minute.
import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { describe, expect, it, vi } from 'vitest';
import type { Broadcast } from '@server/kernel/broadcast';
import { connectRedis, redisBroadcast } from '@server/kernel/redis';
import type { SessionRecord } from '@server/db/repositories/sessions';
import { ACTIVITY_WRITE_INTERVAL_MS, createSessionService, SESSION_CACHE_MS, SESSION_ENDINGS } from './sessions';
import { digestToken } from './bearer-tokens';

function fakeRepos() {
  const rows = new Map<string, SessionRecord>();
  const sessions = {
    insert: vi.fn(async (r: { tokenHash: string; userId: number; expiresAt: Date; now: Date }) => {
      rows.set(r.tokenHash, { tokenHash: r.tokenHash, userId: r.userId, expiresAt: r.expiresAt, lastSeenAt: r.now });
    }),
    findValid: vi.fn(async (tokenHash: string, now: Date) => {
      const row = rows.get(tokenHash);
      return row && row.expiresAt > now ? { ...row } : null;
    }),
    extend: vi.fn(async (tokenHash: string, expiresAt: Date, now: Date) => {
      const row = rows.get(tokenHash);
      if (row) rows.set(tokenHash, { ...row, expiresAt, lastSeenAt: now });
    }),
    delete: vi.fn(async (tokenHash: string) => void rows.delete(tokenHash)),
    deleteAllForUser: vi.fn(async (userId: number) => {
      for (const [hash, row] of rows) if (row.userId === userId) rows.delete(hash);
    }),
  };
  const users = { touchLastActive: vi.fn(async () => {}) };
  return { rows, repos: { sessions, users } as never as Parameters<typeof createSessionService>[0], sessions };
}

/** Two instances' endings joined in memory, as Redis joins them. */
function bus(): Broadcast {
  const handlers: Array<(ending: string) => void> = [];
  return { announce: async (ending) => handlers.forEach((h) => h(ending)), listen: async (h) => void handlers.push(h) };
}

describe('session service', () => {
  it('reads a session from the database once per SESSION_CACHE_MS, and drops one that expired meanwhile', async () => {
    const { repos, sessions, rows } = fakeRepos();
    let clock = Date.parse('2026-11-24T10:00:00Z');
    const service = createSessionService(repos, () => new Date(clock));
    const { token, tokenHash } = await service.create(7);
    expect(await service.resolve(token)).toEqual({ userId: 7, tokenHash, extended: false });
    clock += SESSION_CACHE_MS - 1;
    expect(await service.resolve(token)).toMatchObject({ userId: 7 });
    expect(sessions.findValid).toHaveBeenCalledTimes(1);
    clock += 1;
    expect(await service.resolve(token)).toMatchObject({ userId: 7, extended: false });
    expect(sessions.findValid).toHaveBeenCalledTimes(2);
    // Read again with an expiry 5 ms away, which passes while it is remembered: refused all the same.
    clock += SESSION_CACHE_MS;
    rows.get(tokenHash)!.expiresAt = new Date(clock + 5);
    expect(await service.resolve(token)).toMatchObject({ userId: 7 });
    clock += 10;
    expect(await service.resolve(token)).toBeNull();
    expect(await service.resolve('never-issued')).toBeNull();
  });

  it('still slides the expiry (and answers extended) once a minute from remembered sessions', async () => {
    const { repos, sessions } = fakeRepos();
    let clock = Date.parse('2026-11-24T10:00:00Z');
    const service = createSessionService(repos, () => new Date(clock));
    const { token } = await service.create(7);
    clock += ACTIVITY_WRITE_INTERVAL_MS - SESSION_CACHE_MS / 2;
    await service.resolve(token);
    clock += SESSION_CACHE_MS / 2;
    expect(await service.resolve(token)).toMatchObject({ extended: true });
    expect(sessions.extend).toHaveBeenCalledTimes(1);
    expect(await service.resolve(token)).toMatchObject({ extended: false });
    expect(sessions.extend).toHaveBeenCalledTimes(1);
  });

  it('a logout and a password change end sessions at once, here and on another instance', async () => {
    const { repos } = fakeRepos();
    const clock = Date.parse('2026-11-24T10:00:00Z');
    const endings = bus();
    const here = createSessionService(repos, () => new Date(clock), endings);
    const there = createSessionService(repos, () => new Date(clock), endings);
    await Promise.all([here.start(), there.start()]);
    const first = await here.create(7);
    const second = await here.create(7);
    const other = await here.create(8);
    for (const service of [here, there])
      for (const s of [first, second, other]) expect(await service.resolve(s.token)).not.toBeNull();

    await here.end(first.tokenHash);
    expect(await here.resolve(first.token)).toBeNull();
    expect(await there.resolve(first.token)).toBeNull();
    expect(await there.resolve(second.token)).not.toBeNull();

    const renewed = await there.rotate(7, null);
    expect(await here.resolve(second.token)).toBeNull();
    expect(await here.resolve(renewed.token)).toMatchObject({ userId: 7 });
    expect(await here.resolve(other.token)).toMatchObject({ userId: 8 });
  });

  it('over Redis, an ending announced by one instance reaches the others', async () => {
    const keyPrefix = `tw-test:${randomBytes(6).toString('hex')}:`;
    const log = pino({ level: 'silent' });
    const url = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
    const [a, b] = await Promise.all([connectRedis({ url, keyPrefix }, log), connectRedis({ url, keyPrefix }, log)]);
    try {
      const { repos } = fakeRepos();
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
