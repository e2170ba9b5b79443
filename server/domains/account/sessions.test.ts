// Session resolution with its short memory: a session is read from the database once per
// SESSION_CACHE_MS, not once per request; expiry, logout and password changes still end it at once,
// on this instance and on the others (over Redis: sessions.loopback.test.ts); the sliding expiry
// still writes once a minute.
import { describe, expect, it } from 'vitest';
import type { Broadcast } from '@server/kernel/broadcast';
import { fakeSessionRepos as fakeRepos } from '@server/test/fake-session-repos';
import { ACTIVITY_WRITE_INTERVAL_MS, createSessionService, SESSION_CACHE_MS } from './sessions';

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
});
