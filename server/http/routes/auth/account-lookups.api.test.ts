// Asking whether a username or an email is taken is limited per network: an IPv4
// address or an IPv6 /64. /api/check-username (and a rename, which answers the same question) by
// USERNAME_CHECKS_PER_MINUTE, /api/update-email by EMAIL_UPDATES_PER_HOUR. A sign-up form's use
// stays well inside the defaults.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerUser, TestClient, uniqueName, type TestContext } from '@server/test/test-app';

let limited: TestContext;
let defaults: TestContext;
beforeAll(async () => {
  [limited, defaults] = await Promise.all([
    createTestApp({ accountLookups: { usernameChecksPerMinute: 3, emailUpdatesPerHour: 2 } }),
    createTestApp(),
  ]);
});
afterAll(() => Promise.all([limited.close(), defaults.close()]));

const check = (ctx: TestContext, ip: string, name = uniqueName()) =>
  new TestClient(ctx.app, ip).get(`/api/check-username?username=${name}`);

describe('GET /api/check-username', () => {
  it('answers a sign-up form as it types with the defaults', async () => {
    // Someone trying twenty names in a minute, each asked once 500 ms after typing stopped.
    for (let i = 0; i < 20; i += 1) {
      const res = await check(defaults, '10.30.0.1');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ available: true });
    }
  });

  it('refuses a network past the limit with 429, a clear message and Retry-After, until the minute is over', async () => {
    for (let i = 0; i < 3; i += 1) expect((await check(limited, '10.31.0.1')).statusCode).toBe(200);
    const refused = await check(limited, '10.31.0.1');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({
      message: 'Too many username checks from this network. Please wait a minute and try again.',
      code: 'RATE_LIMITED',
    });
    expect(refused.headers['retry-after']).toBe('60');
    expect((await check(limited, '10.31.0.2')).statusCode).toBe(200);
    limited.clock.advance(60_000 + 1);
    expect((await check(limited, '10.31.0.1')).statusCode).toBe(200);
  });

  it('counts an IPv6 /64 as one network', async () => {
    for (const ip of ['2001:db8:31:1::1', '2001:db8:31:1::2', '2001:db8:31:1:ffff::9'])
      expect((await check(limited, ip)).statusCode).toBe(200);
    expect((await check(limited, '2001:db8:31:1::77')).statusCode).toBe(429);
    expect((await check(limited, '2001:db8:31:2::1')).statusCode).toBe(200);
  });

  it('counts a rename in the same budget: it tells whether a name is taken too', async () => {
    const user = await registerUser(limited.app, { ip: '10.32.0.1' });
    for (let i = 0; i < 2; i += 1) expect((await check(limited, '10.32.0.1')).statusCode).toBe(200);
    expect((await user.client.post('/api/settings/username', { newUsername: uniqueName() })).statusCode).toBe(200);
    const refused = await user.client.post('/api/settings/username', { newUsername: uniqueName() });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toBe(
      'Too many username checks from this network. Please wait a minute and try again.',
    );
  });
});

describe('POST /api/update-email', () => {
  it('refuses a network past the hourly limit with 429 and Retry-After; visitors are not counted', async () => {
    const user = await registerUser(limited.app, { ip: '10.33.0.1' });
    for (let i = 0; i < 3; i += 1)
      expect(
        (await new TestClient(limited.app, '10.33.0.1').post('/api/update-email', { email: 'a@example.com' }))
          .statusCode,
      ).toBe(401);
    expect((await user.client.post('/api/update-email', { email: `${uniqueName()}@example.com` })).statusCode).toBe(
      200,
    );
    const other = await registerUser(limited.app, { ip: '10.33.0.2' });
    // Someone else's email: a 409 is an answer too, and counts.
    expect((await user.client.post('/api/update-email', { email: other.email })).statusCode).toBe(409);
    const refused = await user.client.post('/api/update-email', { email: `${uniqueName()}@example.com` });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({
      message: 'Too many email changes from this network. Please try again later.',
      code: 'RATE_LIMITED',
    });
    expect(refused.headers['retry-after']).toBe('3600');
    expect((await other.client.post('/api/update-email', { email: `${uniqueName()}@example.com` })).statusCode).toBe(
      200,
    );
    limited.clock.advance(60 * 60_000 + 1);
    expect((await user.client.post('/api/update-email', { email: `${uniqueName()}@example.com` })).statusCode).toBe(
      200,
    );
  });
});
