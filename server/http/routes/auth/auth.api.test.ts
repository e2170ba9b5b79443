// Registration, captcha, username availability, login and logout through the real endpoints.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  registerUser,
  solveCaptcha,
  TestClient,
  uniqueName,
  type TestContext,
} from '@server/test/test-app';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({ adminUsernames: ['rootadmin'] });
});
afterAll(() => ctx.close());

async function freshCaptcha(client: TestClient) {
  const res = await client.get('/api/captcha');
  expect(res.statusCode).toBe(200);
  return res.json() as { success: true; question: string };
}

describe('GET /api/captcha', () => {
  it('asks a two-integer arithmetic question and keeps the answer server side', async () => {
    const client = new TestClient(ctx.app);
    const body = await freshCaptcha(client);
    expect(body.success).toBe(true);
    expect(body.question).toMatch(/^What is \d+ [+\-×] \d+\?$/);
    expect(JSON.stringify(body)).not.toMatch(/answer/i);
    expect(client.cookies.get('tw_captcha')).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('limits questions per IP per minute, a burst included, and counts no refused request', async () => {
    const limited = await createTestApp({
      rateLimits: { loginMaxFailures: 10, loginWindowMs: 900_000, registerPerHour: 30, captchaPerMinute: 3 },
    });
    try {
      const ask = () => new TestClient(limited.app, '10.6.0.1').get('/api/captcha');
      const burst = await Promise.all([ask(), ask(), ask(), ask(), ask()]);
      expect(burst.filter((r) => r.statusCode === 200).length).toBeLessThanOrEqual(3);
      const refused = burst.find((r) => r.statusCode === 429);
      expect(refused?.json()).toEqual({
        message: 'Too many captcha requests. Please wait a minute and try again.',
        code: 'RATE_LIMITED',
      });
      limited.clock.advance(60_000 + 1);
      // The refused ones left no trace: a fresh minute allows exactly three again.
      const statuses = [];
      for (let i = 0; i < 4; i += 1) statuses.push((await ask()).statusCode);
      expect(statuses).toEqual([200, 200, 200, 429]);
    } finally {
      await limited.close();
    }
  });
});

describe('POST /api/register', () => {
  it('creates the account, signs it in and never returns the password or its hash', async () => {
    const client = new TestClient(ctx.app);
    const { question } = await freshCaptcha(client);
    const username = uniqueName('Reg');
    const res = await client.post('/api/register', {
      username,
      email: `${username}@Example.com`,
      password: 'secret123',
      captchaAnswer: solveCaptcha(question),
    });
    expect(res.statusCode).toBe(201);
    const user = res.json();
    expect(user).toMatchObject({ username, email: `${username}@Example.com`, isAdmin: false, lastActive: null });
    expect(user.tokenUsage).toEqual({
      textTokens: 0,
      imageTokens: 0,
      total: 0,
      thisMonth: 0,
      balance: null,
      monthCostUsd: 0,
    });
    expect(typeof user.id).toBe('number');
    expect(res.body).not.toMatch(/password|argon2|hash/i);
    const cookie = res.headers['set-cookie'] as string[] | string;
    const sessionCookie = [cookie].flat().find((c) => c.startsWith('tw_session='));
    expect(sessionCookie).toMatch(/HttpOnly/);
    expect(sessionCookie).toMatch(/SameSite=Lax/);
    expect(sessionCookie).toMatch(/Path=\//);
    expect(sessionCookie).not.toMatch(/Secure/);
    const me = await client.get('/api/user');
    expect(me.statusCode).toBe(200);
    expect(me.json().id).toBe(user.id);
  });

  it('rejects a wrong captcha with 400 naming the captcha, and consumes the challenge', async () => {
    const client = new TestClient(ctx.app);
    const { question } = await freshCaptcha(client);
    const wrong = String(Number(solveCaptcha(question)) + 1);
    const body = {
      username: uniqueName(),
      email: `${uniqueName()}@example.com`,
      password: 'secret123',
      captchaAnswer: wrong,
    };
    const res = await client.post('/api/register', body);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/captcha/i);
    expect(res.json().code).toBe('CAPTCHA_FAILED');
    // The right answer no longer works: the challenge was used up.
    const retry = await client.post('/api/register', { ...body, captchaAnswer: solveCaptcha(question) });
    expect(retry.statusCode).toBe(400);
    expect(retry.json().message).toMatch(/captcha/i);
  });

  it('rejects a registration without a captcha challenge', async () => {
    const client = new TestClient(ctx.app);
    const res = await client.post('/api/register', {
      username: uniqueName(),
      email: 'x@example.com',
      password: 'secret123',
      captchaAnswer: '4',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/captcha/i);
  });

  it('expires a captcha after ten minutes', async () => {
    const client = new TestClient(ctx.app);
    const { question } = await freshCaptcha(client);
    ctx.clock.advance(10 * 60_000 + 1);
    const res = await client.post('/api/register', {
      username: uniqueName(),
      email: `${uniqueName()}@example.com`,
      password: 'secret123',
      captchaAnswer: solveCaptcha(question),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/captcha/i);
  });

  it('refuses a taken username or email case-insensitively, keeping a solved captcha', async () => {
    const existing = await registerUser(ctx.app);
    const client = new TestClient(ctx.app);
    const { question } = await freshCaptcha(client);
    const answer = solveCaptcha(question);
    const taken = await client.post('/api/register', {
      username: existing.username.toUpperCase(),
      email: `${uniqueName()}@example.com`,
      password: 'secret123',
      captchaAnswer: answer,
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe('Username is already taken');
    const emailTaken = await client.post('/api/register', {
      username: uniqueName(),
      email: existing.email.toUpperCase(),
      password: 'secret123',
      captchaAnswer: answer,
    });
    expect(emailTaken.statusCode).toBe(409);
    expect(emailTaken.json().message).toBe('An account with this email already exists');
    const ok = await client.post('/api/register', {
      username: uniqueName(),
      email: `${uniqueName()}@example.com`,
      password: 'secret123',
      captchaAnswer: answer,
    });
    expect(ok.statusCode).toBe(201);
  });

  it('lets one solved captcha create one account, even when two registrations race with it', async () => {
    const client = new TestClient(ctx.app);
    const { question } = await freshCaptcha(client);
    const answer = solveCaptcha(question);
    const attempt = () =>
      client.post('/api/register', {
        username: uniqueName(),
        email: `${uniqueName()}@example.com`,
        password: 'secret123',
        captchaAnswer: answer,
      });
    const results = await Promise.all([attempt(), attempt(), attempt()]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 400, 400]);
    for (const refused of results.filter((r) => r.statusCode === 400))
      expect(refused.json().message).toMatch(/captcha/i);
  });

  it.each([
    [{ username: 'ab' }, 'Username must be at least 3 characters'],
    [{ username: 42 }, 'Username must be at least 3 characters'],
    [{ username: 'bad name!' }, 'Username may only contain letters, numbers, dots, dashes and underscores'],
    [{ username: 'x'.repeat(33) }, 'Username must be at most 32 characters'],
    [{ email: 'not-an-email' }, 'Please enter a valid email address'],
    [{ email: `${'a'.repeat(250)}@example.com` }, 'Please enter a valid email address'],
    [{ password: '12345' }, 'Password must be at least 6 characters'],
    [{ password: 'x'.repeat(257) }, 'Password must be at most 256 characters'],
    [{ captchaAnswer: '  ' }, 'Please solve the CAPTCHA'],
    [{ captchaAnswer: undefined }, 'Please solve the CAPTCHA'],
  ])('rejects %o with 400 and the spec message', async (change, message) => {
    const client = new TestClient(ctx.app);
    const body = {
      username: uniqueName(),
      email: `${uniqueName()}@example.com`,
      password: 'secret123',
      captchaAnswer: '1',
      ...change,
    };
    const res = await client.post('/api/register', body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message, code: 'VALIDATION_ERROR' });
    expect(res.json().details[0].message).toBe(message);
  });

  it('grants admin to a username listed in ADMIN_USERNAMES', async () => {
    const admin = await registerUser(ctx.app, { username: 'RootAdmin' });
    const me = await admin.client.get('/api/user');
    expect(me.json().isAdmin).toBe(true);
  });

  it('limits registrations per IP (30 an hour by default)', async () => {
    const limited = await createTestApp({
      rateLimits: { loginMaxFailures: 10, loginWindowMs: 900_000, registerPerHour: 2, captchaPerMinute: 100 },
    });
    try {
      await registerUser(limited.app, { ip: '10.1.1.1' });
      await registerUser(limited.app, { ip: '10.1.1.1' });
      await expect(registerUser(limited.app, { ip: '10.1.1.1' })).rejects.toThrow(/429.*Too many accounts/);
      await registerUser(limited.app, { ip: '10.1.1.2' });
      limited.clock.advance(60 * 60_000 + 1);
      await registerUser(limited.app, { ip: '10.1.1.1' });
    } finally {
      await limited.close();
    }
  });
});

describe('GET /api/check-username', () => {
  it('tells whether a username is free, case-insensitively', async () => {
    const existing = await registerUser(ctx.app);
    const client = new TestClient(ctx.app);
    const taken = await client.get(`/api/check-username?username=${existing.username.toUpperCase()}`);
    expect(taken.statusCode).toBe(200);
    expect(taken.json()).toEqual({ available: false });
    const free = await client.get(`/api/check-username?username=${uniqueName()}`);
    expect(free.json()).toEqual({ available: true });
  });

  it('rejects a missing or oversized username with 400', async () => {
    const client = new TestClient(ctx.app);
    const missing = await client.get('/api/check-username');
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe('Username must be at least 3 characters');
    const long = await client.get(`/api/check-username?username=${'x'.repeat(40)}`);
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toBe('Username must be at most 32 characters');
    const repeated = await client.get('/api/check-username?username=alice&username=bob');
    expect(repeated.statusCode).toBe(400);
    expect(repeated.json()).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: 'Username must be at least 3 characters',
    });
  });
});

describe('POST /api/login', () => {
  it('signs in with the username or the email, in any case', async () => {
    const user = await registerUser(ctx.app);
    for (const login of [user.username, user.email.toUpperCase()]) {
      const client = new TestClient(ctx.app);
      const res = await client.post('/api/login', { username: login, password: user.password });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ id: user.id, username: user.username, isAdmin: false });
      expect(res.body).not.toMatch(/hash|argon/i);
      expect((await client.get('/api/user')).json().id).toBe(user.id);
    }
  });

  it('answers a wrong password and an unknown user with the same 401', async () => {
    const user = await registerUser(ctx.app);
    const client = new TestClient(ctx.app);
    const wrong = await client.post('/api/login', { username: user.username, password: 'wrong-password' });
    const unknown = await client.post('/api/login', { username: uniqueName(), password: 'wrong-password' });
    for (const res of [wrong, unknown]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ message: 'Invalid username or password', code: 'INVALID_CREDENTIALS' });
    }
    expect(client.cookies.has('tw_session')).toBe(false);
  });

  it.each([
    [{ username: '' }, 'Username or Email is required'],
    [{ username: undefined }, 'Username or Email is required'],
    [{ username: ['a'] }, 'Username or Email is required'],
    [{ username: 'x'.repeat(300) }, 'Username or Email is required'],
    [{ password: 'short' }, 'Password must be at least 6 characters'],
    [{ password: 123456 }, 'Password must be at least 6 characters'],
  ])('rejects %o with 400 and the spec message', async (change, message) => {
    const res = await new TestClient(ctx.app).post('/api/login', {
      username: 'someone',
      password: 'secret123',
      ...change,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
  });

  it('gives a new session token on every login', async () => {
    const user = await registerUser(ctx.app);
    const before = user.client.cookies.get('tw_session');
    await user.client.post('/api/login', { username: user.username, password: user.password });
    const after = user.client.cookies.get('tw_session');
    expect(after).toBeDefined();
    expect(after).not.toBe(before);
    const stale = new TestClient(ctx.app);
    stale.cookies.set('tw_session', before as string);
    expect((await stale.get('/api/user')).statusCode).toBe(401);
  });

  it('locks an account after 10 failures in 15 minutes (429), then lets it in again', async () => {
    const user = await registerUser(ctx.app);
    for (let i = 0; i < 10; i += 1) {
      const res = await new TestClient(ctx.app, `10.2.0.${i}`).post('/api/login', {
        username: user.username,
        password: 'wrong-password',
      });
      expect(res.statusCode).toBe(401);
    }
    const blocked = await new TestClient(ctx.app, '10.2.1.1').post('/api/login', {
      username: user.username,
      password: user.password,
    });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toEqual({
      message: 'Too many failed login attempts. Please try again later.',
      code: 'RATE_LIMITED',
    });
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    ctx.clock.advance(15 * 60_000 + 1);
    const later = await new TestClient(ctx.app, '10.2.1.1').post('/api/login', {
      username: user.username,
      password: user.password,
    });
    expect(later.statusCode).toBe(200);
  });

  it('counts failures per account whichever name it is tried by, and a burst cannot slip past the limit', async () => {
    const user = await registerUser(ctx.app);
    for (let i = 0; i < 5; i += 1) {
      expect(
        (
          await new TestClient(ctx.app, `10.4.0.${i}`).post('/api/login', {
            username: user.username,
            password: 'wrong-password',
          })
        ).statusCode,
      ).toBe(401);
    }
    // Eight at once, by email, from eight more addresses: never more than the 5 failures left get
    // through (how many do depends on how the database interleaves them; the rest are 429)...
    const burst = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        new TestClient(ctx.app, `10.4.1.${i}`).post('/api/login', {
          username: user.email.toUpperCase(),
          password: 'wrong-password',
        }),
      ),
    );
    const through = burst.filter((r) => r.statusCode === 401).length;
    expect(through).toBeLessThanOrEqual(5);
    expect(burst.filter((r) => r.statusCode === 429)).toHaveLength(8 - through);
    // ...and one at a time, exactly 10 failures in all are allowed before the account locks...
    let more = 0;
    for (let i = 0; i < 10; i += 1) {
      const res = await new TestClient(ctx.app, `10.4.3.${i}`).post('/api/login', {
        username: user.email,
        password: 'wrong-password',
      });
      if (res.statusCode === 429) break;
      expect(res.statusCode).toBe(401);
      more += 1;
    }
    expect(5 + through + more).toBe(10);
    // ...so the right password is refused too, by username, until the window passes.
    expect(
      (
        await new TestClient(ctx.app, '10.4.2.1').post('/api/login', {
          username: user.username,
          password: user.password,
        })
      ).statusCode,
    ).toBe(429);
    ctx.clock.advance(15 * 60_000 + 1);
    expect(
      (
        await new TestClient(ctx.app, '10.4.2.1').post('/api/login', {
          username: user.username,
          password: user.password,
        })
      ).statusCode,
    ).toBe(200);
  });

  it('does not count successful logins against an IP', async () => {
    const user = await registerUser(ctx.app);
    for (let i = 0; i < 12; i += 1) {
      expect(
        (
          await new TestClient(ctx.app, '10.5.0.1').post('/api/login', {
            username: user.username,
            password: user.password,
          })
        ).statusCode,
      ).toBe(200);
    }
  });

  it('blocks an IP after 10 failures across accounts', async () => {
    const ip = '10.3.0.1';
    for (let i = 0; i < 10; i += 1) {
      await new TestClient(ctx.app, ip).post('/api/login', { username: uniqueName(), password: 'wrong-password' });
    }
    const user = await registerUser(ctx.app);
    const blocked = await new TestClient(ctx.app, ip).post('/api/login', {
      username: user.username,
      password: user.password,
    });
    expect(blocked.statusCode).toBe(429);
    const elsewhere = await new TestClient(ctx.app, '10.3.0.2').post('/api/login', {
      username: user.username,
      password: user.password,
    });
    expect(elsewhere.statusCode).toBe(200);
  });
});

describe('POST /api/logout', () => {
  it('ends the session server side and clears the cookie', async () => {
    const user = await registerUser(ctx.app);
    const token = user.client.cookies.get('tw_session') as string;
    const res = await user.client.request({
      method: 'POST',
      url: '/api/logout',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });
    expect(user.client.cookies.has('tw_session')).toBe(false);
    const replay = new TestClient(ctx.app);
    replay.cookies.set('tw_session', token);
    const me = await replay.get('/api/user');
    expect(me.statusCode).toBe(401);
    expect(me.json()).toEqual({ message: 'Authentication required', code: 'UNAUTHENTICATED' });
  });

  it('succeeds when already logged out', async () => {
    const res = await new TestClient(ctx.app).post('/api/logout');
    expect(res.statusCode).toBe(200);
  });
});
