// The current user and the account settings: username, password (with session rotation) and email.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepositories } from '@server/db/repositories';
import { createTestApp, registerUser, TestClient, uniqueName, type TestContext } from '@server/test/test-app';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({ adminUsernames: ['chiefadmin'] });
});
afterAll(() => ctx.close());

const unauthenticated = { message: 'Authentication required', code: 'UNAUTHENTICATED' };

describe('GET and HEAD /api/user', () => {
  it('is 401 "Authentication required" without a session, for GET and HEAD', async () => {
    const client = new TestClient(ctx.app);
    const get = await client.get('/api/user');
    expect(get.statusCode).toBe(401);
    expect(get.json()).toEqual(unauthenticated);
    const head = await client.request({ method: 'HEAD', url: '/api/user' });
    expect(head.statusCode).toBe(401);
    expect(head.body).toBe('');
  });

  it('answers HEAD with 200 and no body when signed in', async () => {
    const user = await registerUser(ctx.app);
    const head = await user.client.request({ method: 'HEAD', url: '/api/user' });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
  });

  it('reports token usage from the ledger, with this month apart', async () => {
    const user = await registerUser(ctx.app);
    const repos = createRepositories(ctx.database.db);
    const lastYear = new Date(ctx.clock.now.getTime() - 400 * 24 * 60 * 60_000);
    await repos.usage.record({
      userId: user.id,
      provider: 'builtin',
      model: 'demo',
      inputTokens: 100,
      outputTokens: 50,
      createdAt: lastYear,
    });
    await repos.usage.record({
      userId: user.id,
      provider: 'builtin',
      model: 'demo',
      inputTokens: 10,
      outputTokens: 5,
      imageTokens: 7,
      createdAt: ctx.clock.now,
    });
    const me = (await user.client.get('/api/user')).json();
    // This month's spend at the spec's rates: 15 text tokens at $4 and 7 image tokens at $20 a million.
    expect(me.tokenUsage).toEqual({
      textTokens: 165,
      imageTokens: 7,
      total: 172,
      thisMonth: 22,
      balance: null,
      monthCostUsd: 0.0002,
    });
  });

  it('ignores a forged or garbage session cookie', async () => {
    const client = new TestClient(ctx.app);
    client.cookies.set('tw_session', 'forged-token-value');
    const res = await client.get('/api/user');
    expect(res.statusCode).toBe(401);
    expect(client.cookies.has('tw_session')).toBe(false);
  });
});

describe('sessions', () => {
  it('slide: a session used within 30 days stays alive, an idle one expires', async () => {
    const user = await registerUser(ctx.app);
    ctx.clock.advance(20 * 24 * 60 * 60_000);
    expect((await user.client.get('/api/user')).statusCode).toBe(200);
    ctx.clock.advance(20 * 24 * 60 * 60_000);
    expect((await user.client.get('/api/user')).statusCode).toBe(200);
    ctx.clock.advance(30 * 24 * 60 * 60_000 + 1000);
    expect((await user.client.get('/api/user')).statusCode).toBe(401);
  });

  it('update lastActive at most once a minute', async () => {
    const user = await registerUser(ctx.app);
    // Registering signed the player in, and signing in is activity.
    const first = (await user.client.get('/api/user')).json().lastActive;
    expect(first).toBe(ctx.clock.now.toISOString());
    ctx.clock.advance(30_000);
    expect((await user.client.get('/api/user')).json().lastActive).toBe(first);
    ctx.clock.advance(31_000);
    const touched = (await user.client.get('/api/user')).json().lastActive;
    expect(touched).toBe(ctx.clock.now.toISOString());
    ctx.clock.advance(30_000);
    expect((await user.client.get('/api/user')).json().lastActive).toBe(touched);
    ctx.clock.advance(31_000);
    expect((await user.client.get('/api/user')).json().lastActive).toBe(ctx.clock.now.toISOString());
  });
});

describe('POST /api/settings/username', () => {
  it('changes the username; the old one is free again', async () => {
    const user = await registerUser(ctx.app);
    const newUsername = uniqueName('Renamed');
    const res = await user.client.post('/api/settings/username', { newUsername });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: user.id, username: newUsername });
    expect((await user.client.get(`/api/check-username?username=${user.username}`)).json()).toEqual({
      available: true,
    });
    const login = await new TestClient(ctx.app).post('/api/login', { username: newUsername, password: user.password });
    expect(login.statusCode).toBe(200);
  });

  it('refuses a name taken by someone else (409), the same name (400) and a reserved admin name (409)', async () => {
    const user = await registerUser(ctx.app);
    const other = await registerUser(ctx.app);
    const taken = await user.client.post('/api/settings/username', { newUsername: other.username.toLowerCase() });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe('Username is already taken');
    const same = await user.client.post('/api/settings/username', { newUsername: user.username });
    expect(same.statusCode).toBe(400);
    expect(same.json().message).toBe('That is already your username');
    const reserved = await user.client.post('/api/settings/username', { newUsername: 'ChiefAdmin' });
    expect(reserved.statusCode).toBe(409);
    expect(reserved.json().message).toBe('That username is reserved');
  });

  it.each([
    [{}, 'Username must be at least 3 characters'],
    [{ newUsername: 7 }, 'Username must be at least 3 characters'],
    [{ newUsername: 'ab' }, 'Username must be at least 3 characters'],
    [{ newUsername: 'y'.repeat(33) }, 'Username must be at most 32 characters'],
  ])('rejects %o with 400', async (body, message) => {
    const user = await registerUser(ctx.app);
    const res = await user.client.post('/api/settings/username', body);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
  });

  it('is 401 when logged out', async () => {
    const res = await new TestClient(ctx.app).post('/api/settings/username', { newUsername: uniqueName() });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(unauthenticated);
  });
});

describe('POST /api/settings/password', () => {
  it('changes the password, rotates this session and ends the others', async () => {
    const user = await registerUser(ctx.app);
    const otherDevice = new TestClient(ctx.app);
    await otherDevice.post('/api/login', { username: user.username, password: user.password });
    const oldToken = user.client.cookies.get('tw_session');
    const res = await user.client.post('/api/settings/password', {
      currentPassword: user.password,
      newPassword: 'a much better secret',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });
    expect(user.client.cookies.get('tw_session')).not.toBe(oldToken);
    expect((await user.client.get('/api/user')).statusCode).toBe(200);
    expect((await otherDevice.get('/api/user')).statusCode).toBe(401);
    const oldLogin = await new TestClient(ctx.app).post('/api/login', {
      username: user.username,
      password: user.password,
    });
    expect(oldLogin.statusCode).toBe(401);
    const newLogin = await new TestClient(ctx.app).post('/api/login', {
      username: user.username,
      password: 'a much better secret',
    });
    expect(newLogin.statusCode).toBe(200);
  });

  it('refuses a wrong current password with 400 and keeps the old one', async () => {
    const user = await registerUser(ctx.app);
    const res = await user.client.post('/api/settings/password', {
      currentPassword: 'not-my-password',
      newPassword: 'whatever12345',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Current password is incorrect');
    const login = await new TestClient(ctx.app).post('/api/login', {
      username: user.username,
      password: user.password,
    });
    expect(login.statusCode).toBe(200);
  });

  it.each([
    [{ newPassword: 'longenough1' }, 'Current password is required'],
    [{ currentPassword: '', newPassword: 'longenough1' }, 'Current password is required'],
    [{ currentPassword: 'something', newPassword: 'short12' }, 'Password must be at least 8 characters'],
    [{ currentPassword: 'something', newPassword: 12345678 }, 'Password must be at least 8 characters'],
    [{ currentPassword: 'something', newPassword: 'z'.repeat(257) }, 'Password must be at most 256 characters'],
  ])('rejects %o with 400', async (body, message) => {
    const user = await registerUser(ctx.app);
    const res = await user.client.post('/api/settings/password', body);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
  });

  it('is 401 when logged out', async () => {
    const res = await new TestClient(ctx.app).post('/api/settings/password', {
      currentPassword: 'something',
      newPassword: 'longenough1',
    });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(unauthenticated);
  });
});

describe('POST /api/update-email', () => {
  it('sets a new email, which then works for login', async () => {
    const user = await registerUser(ctx.app);
    const email = `${uniqueName('new')}@example.org`;
    const res = await user.client.post('/api/update-email', { email: `  ${email} ` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: user.id, email });
    const login = await new TestClient(ctx.app).post('/api/login', { username: email, password: user.password });
    expect(login.statusCode).toBe(200);
  });

  it('refuses an email another account uses (409)', async () => {
    const user = await registerUser(ctx.app);
    const other = await registerUser(ctx.app);
    const res = await user.client.post('/api/update-email', { email: other.email.toUpperCase() });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('An account with this email already exists');
  });

  it.each([[{}], [{ email: 5 }], [{ email: 'nope' }], [{ email: `${'e'.repeat(260)}@example.com` }]])(
    'rejects %o with 400',
    async (body) => {
      const user = await registerUser(ctx.app);
      const res = await user.client.post('/api/update-email', body);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('Please enter a valid email address');
    },
  );

  it('is 401 when logged out', async () => {
    const res = await new TestClient(ctx.app).post('/api/update-email', { email: 'someone@example.com' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(unauthenticated);
  });
});
