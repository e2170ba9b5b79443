// Bad input to the player's data and the admin queries: GET /api/user/export and
// DELETE /api/user take nothing from the request but the session (and the password), so no query
// or body field can reach another player; the admin users table, a user's months, the usage
// history and the CSV refuse bad parameters by name, ids no row can have are 404 (not a 500), and
// a player who is not an admin is refused before any parameter is looked at.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ABSENT_IDS, expectRefusal, MALFORMED_IDS, sendRaw } from '@server/test/bad-input';
import { startStory } from '@server/test/story-turns';
import { createTestApp, registerUser, TestClient, type RegisteredUser, type TestContext } from '@server/test/test-app';
import { PASSWORD_MAX_LENGTH } from '@shared/constants';
import { ADMIN_MESSAGES, ADMIN_QUERY_MESSAGES } from '@shared/schemas/admin';
import { MY_DATA_MESSAGES } from '@shared/schemas/my-data';

let ctx: TestContext;
let owner: RegisteredUser;
let stranger: RegisteredUser;
let admin: RegisteredUser;
const OWNER_PREMISE = 'A lighthouse keeper finds a door in the rock';
const STRANGER_PREMISE = 'A courier crosses the salt flats at night';

beforeAll(async () => {
  ctx = await createTestApp({ adminUsernames: ['boss'] });
  owner = await registerUser(ctx.app);
  stranger = await registerUser(ctx.app);
  admin = await registerUser(ctx.app, { username: 'boss' });
  await startStory(owner.client, OWNER_PREMISE);
  await startStory(stranger.client, STRANGER_PREMISE);
});
afterAll(() => ctx.close());

const deleteAccount = (client: TestClient, json: unknown) =>
  client.request({ method: 'DELETE', url: '/api/user', json });
const signIn = (user: RegisteredUser) =>
  new TestClient(ctx.app).post('/api/login', { username: user.username, password: user.password });

describe("the player's data", () => {
  it('exports the player\u2019s own data whatever the query names', async () => {
    for (const query of [
      '',
      `?userId=${stranger.id}`,
      `?username=${stranger.username}`,
      '?format=xml&format=csv',
      '?storyId=1&storyId=2',
    ]) {
      const res = await owner.client.get(`/api/user/export${query}`);
      expect(res.statusCode, query).toBe(200);
      expect(res.body, query).toContain(owner.username);
      expect(res.body, query).toContain(OWNER_PREMISE);
      expect(res.body, query).not.toContain(stranger.username);
      expect(res.body, query).not.toContain(STRANGER_PREMISE);
    }
    expectRefusal(
      await new TestClient(ctx.app).get(`/api/user/export?userId=${owner.id}`),
      401,
      'Authentication required',
    );
  });

  it('refuses a deletion without the password as text, or with a wrong one, and deletes nothing', async () => {
    for (const password of [undefined, null, '', 5, true, ['pw'], { value: 'pw' }]) {
      expectRefusal(await deleteAccount(owner.client, { password }), 400, MY_DATA_MESSAGES.passwordRequired);
    }
    expectRefusal(
      await deleteAccount(owner.client, { password: 'x'.repeat(PASSWORD_MAX_LENGTH + 1) }),
      400,
      MY_DATA_MESSAGES.passwordWrong,
    );
    expectRefusal(
      await deleteAccount(owner.client, { password: 'not my password' }),
      400,
      MY_DATA_MESSAGES.passwordWrong,
    );
    expectRefusal(
      await deleteAccount(owner.client, { password: owner.password.toUpperCase() }),
      400,
      MY_DATA_MESSAGES.passwordWrong,
    );
    expectRefusal(
      await sendRaw(
        owner.client,
        'DELETE',
        '/api/user',
        `password=${owner.password}`,
        'application/x-www-form-urlencoded',
      ),
      415,
    );
    expectRefusal(await owner.client.request({ method: 'DELETE', url: '/api/user' }), 415);
    expectRefusal(
      await deleteAccount(new TestClient(ctx.app), { password: owner.password }),
      401,
      'Authentication required',
    );
    expect((await owner.client.get('/api/user')).statusCode).toBe(200);
    expect((await signIn(owner)).statusCode).toBe(200);
    expect((await owner.client.get('/api/stories')).json().total).toBe(1);
  });

  it('deletes only the signed-in player, whoever else the body names', async () => {
    const doomed = await registerUser(ctx.app);
    const res = await deleteAccount(doomed.client, {
      password: doomed.password,
      userId: stranger.id,
      username: stranger.username,
      id: stranger.id,
    });
    expect([res.statusCode, res.json()]).toEqual([200, { success: true }]);
    expect((await signIn(doomed)).statusCode).toBe(401);
    expect((await stranger.client.get('/api/user')).statusCode).toBe(200);
    expect((await stranger.client.get('/api/stories')).json().total).toBe(1);
  });
});

describe('admin queries', () => {
  it('refuses bad search, sort and paging parameters by name', async () => {
    const cases: Array<[string, string]> = [
      ['tab=everyone', ADMIN_QUERY_MESSAGES.tab],
      ['tab=', ADMIN_QUERY_MESSAGES.tab],
      ['tab=all&tab=month', ADMIN_QUERY_MESSAGES.tab],
      ['tab=toString', ADMIN_QUERY_MESSAGES.tab],
      ['sort=passwordHash', ADMIN_QUERY_MESSAGES.sort],
      ['sort=__proto__', ADMIN_QUERY_MESSAGES.sort],
      ['sort=username%3Bdrop%20table%20users', ADMIN_QUERY_MESSAGES.sort],
      ['sort=username&sort=email', ADMIN_QUERY_MESSAGES.sort],
      ['order=up', ADMIN_QUERY_MESSAGES.order],
      ['order=asc&order=desc', ADMIN_QUERY_MESSAGES.order],
      ['page=0', ADMIN_QUERY_MESSAGES.page],
      ['page=-1', ADMIN_QUERY_MESSAGES.page],
      ['page=1.5', ADMIN_QUERY_MESSAGES.page],
      ['page=1000001', ADMIN_QUERY_MESSAGES.page],
      ['page=2147483648', ADMIN_QUERY_MESSAGES.page],
      [`page=${'9'.repeat(500)}`, ADMIN_QUERY_MESSAGES.page],
      ['page=1&page=2', ADMIN_QUERY_MESSAGES.page],
      ['pageSize=0', ADMIN_QUERY_MESSAGES.pageSize],
      ['pageSize=201', ADMIN_QUERY_MESSAGES.pageSize],
      ['pageSize=1e2', ADMIN_QUERY_MESSAGES.pageSize],
      ['pageSize=-50', ADMIN_QUERY_MESSAGES.pageSize],
      ['pageSize=50&pageSize=50', ADMIN_QUERY_MESSAGES.pageSize],
      [`q=${'x'.repeat(101)}`, ADMIN_QUERY_MESSAGES.search],
      ['q=ada&q=brian', ADMIN_QUERY_MESSAGES.searchInvalid],
    ];
    for (const [query, message] of cases)
      expectRefusal(await admin.client.get(`/api/admin/users?${query}`), 400, message);
    for (const query of ['days=7', 'days=', 'days=-30', 'days=30.0', 'days=1e9', 'days=30&days=90']) {
      expectRefusal(await admin.client.get(`/api/admin/usage/history?${query}`), 400, ADMIN_QUERY_MESSAGES.days);
    }
    // Names it does not know are ignored; a search with LIKE's characters is text.
    for (const query of ['unknown=1', 'q=%25', 'q=_', 'q=%5C', 'page=1000000&pageSize=200']) {
      expect((await admin.client.get(`/api/admin/users?${query}`)).statusCode, query).toBe(200);
    }
  });

  it('refuses malformed user ids, and answers ids no user can have as not found', async () => {
    for (const id of MALFORMED_IDS)
      expectRefusal(await admin.client.get(`/api/admin/users/${id}/usage`), 400, ADMIN_QUERY_MESSAGES.userId);
    for (const id of [...ABSENT_IDS, '2147483647'])
      expectRefusal(await admin.client.get(`/api/admin/users/${id}/usage`), 404, ADMIN_MESSAGES.userNotFound);
    expect((await admin.client.get(`/api/admin/users/${stranger.id}/usage`)).json().user).toEqual({
      id: stranger.id,
      username: stranger.username,
    });
  });

  it('refuses a player who is not an admin, and a visitor, before reading any parameter', async () => {
    const urls = [
      '/api/admin/users?tab=nope&page=0',
      '/api/admin/users?q=ada&q=brian',
      `/api/admin/users/${'9'.repeat(40)}/usage`,
      `/api/admin/users/${owner.id}/usage`,
      '/api/admin/usage/history?days=7',
      '/api/admin/users/download?format=xlsx',
      '/api/admin/api-usage?x=1',
    ];
    for (const url of urls) {
      expectRefusal(await owner.client.get(url), 403, ADMIN_MESSAGES.adminRequired);
      expectRefusal(await new TestClient(ctx.app).get(url), 401, 'Authentication required');
    }
    const csv = await admin.client.get('/api/admin/users/download?format=xlsx&page=0');
    expect([csv.statusCode, csv.headers['content-type']]).toEqual([200, 'text/csv; charset=utf-8']);
  });
});
