// Admin usage API and the monthly allowance: 401 for visitors and 403 for users on every admin
// endpoint; totals that match the ledger; the users table and its CSV; balance and the 429.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepositories } from '@server/db/repositories';
import { createTestApp, registerUser, TestClient, type TestContext } from '@server/test/test-app';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({ adminUsernames: ['boss'], userMonthlyTokenLimit: 2000 });
});
afterAll(() => ctx.close());

const ENDPOINTS = [
  '/api/admin/api-usage',
  '/api/admin/users',
  '/api/admin/users?tab=month&sort=total&order=desc',
  '/api/admin/users/download',
  '/api/admin/usage/history',
  '/api/admin/users/1/usage',
];

describe('admin access', () => {
  it('is 401 for visitors and 403 "Admin access required" for users, on every admin endpoint', async () => {
    const visitor = new TestClient(ctx.app);
    const user = await registerUser(ctx.app);
    for (const url of ENDPOINTS) {
      const anonymous = await visitor.get(url);
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.json()).toEqual({ message: 'Authentication required', code: 'UNAUTHENTICATED' });
      const forbidden = await user.client.get(url);
      expect(forbidden.statusCode).toBe(403);
      expect(forbidden.json()).toEqual({ message: 'Admin access required', code: 'FORBIDDEN' });
    }
  });
});

describe('usage figures', () => {
  it('match the ledger: per user, overall, this month, and as CSV', async () => {
    const admin = await registerUser(ctx.app, { username: 'boss' });
    const player = await registerUser(ctx.app, { username: '-sneaky', email: 'sneaky@example.com' });
    const repos = createRepositories(ctx.database.db);
    const lastYear = new Date(ctx.clock.now.getTime() - 400 * 24 * 60 * 60_000);
    const before = (await admin.client.get('/api/admin/api-usage')).json();
    await repos.usage.record({
      userId: player.id,
      kind: 'turn',
      provider: 'builtin',
      model: 'taleweaver-demo',
      inputTokens: 300,
      outputTokens: 100,
      createdAt: ctx.clock.now,
    });
    await repos.usage.record({
      userId: player.id,
      kind: 'image',
      provider: 'builtin',
      model: 'painter',
      imageTokens: 50,
      createdAt: ctx.clock.now,
    });
    await repos.usage.record({
      userId: player.id,
      kind: 'turn',
      provider: 'builtin',
      model: 'taleweaver-demo',
      inputTokens: 1000,
      outputTokens: 1000,
      createdAt: lastYear,
    });

    const usage = (await admin.client.get('/api/admin/api-usage')).json();
    expect(usage).toMatchObject({
      provider: 'Offline demo narrator (builtin)',
      providerId: 'builtin',
      model: 'taleweaver-demo',
      notice: expect.stringContaining('LLM_PROVIDER=openai'),
      imageProvider: {
        provider: 'Offline demo painter (builtin)',
        providerId: 'builtin',
        model: 'taleweaver-painter',
        notice: expect.stringContaining('IMAGE_PROVIDER=openai'),
      },
    });
    expect(usage.total).toEqual({
      input: before.total.input + 1300,
      output: before.total.output + 1100,
      image: before.total.image + 50,
    });
    expect(usage.thisMonth).toEqual({
      input: before.thisMonth.input + 300,
      output: before.thisMonth.output + 100,
      image: before.thisMonth.image + 50,
    });

    const users = (await admin.client.get('/api/admin/users')).json();
    const month = ctx.clock.now.toISOString().slice(0, 7);
    expect(users.metadata).toMatchObject({
      totalUsers: users.users.length,
      currentMonth: month,
      matchingUsers: users.users.length,
      page: 1,
      pageSize: 50,
    });
    const row = users.users.find((u: { id: number }) => u.id === player.id);
    expect(row).toMatchObject({ username: '-sneaky', isAdmin: false, stories: 0, turns: 2 });
    expect(row.tokenUsage).toEqual({
      textTokens: 2400,
      imageTokens: 50,
      total: 2450,
      thisMonth: 450,
      balance: 1550,
      monthCostUsd: 0.0026,
    });
    // Priced on the server at the spec's rates ($4 and $20 a million): 2,400 text and 50 image tokens, 450 this month.
    expect(row.costs).toEqual({ text: 0.0096, image: 0.001, total: 0.0106, thisMonth: 0.0026 });
    expect(usage.costs.total.total - before.costs.total.total).toBeCloseTo(0.0106, 6);
    expect(usage.costs.thisMonth.input - before.costs.thisMonth.input).toBeCloseTo(0.0012, 6);
    expect(usage.costs.thisMonth.image - before.costs.thisMonth.image).toBeCloseTo(0.001, 6);
    expect(row).not.toHaveProperty('passwordHash');

    const csv = await admin.client.get('/api/admin/users/download');
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe(`attachment; filename="taleweaver-users-${month}.csv"`);
    const lines = csv.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'id,username,email,isAdmin,createdAt,lastActive,stories,turns,textTokens,imageTokens,total,thisMonth,balance',
    );
    expect(lines).toHaveLength(users.users.length + 1);
    // A spreadsheet must not run a username as a formula.
    expect(lines.find((l) => l.startsWith(`${player.id},`))).toBe(
      `${player.id},'-sneaky,${player.email},false,${row.createdAt},${row.lastActive ?? ''},0,2,2400,50,2450,450,1550`,
    );
  });
});

describe('monthly allowance', () => {
  it('reports the balance and answers 429 before calling the narrator once it is spent, until the next month', async () => {
    const { client, id } = await registerUser(ctx.app);
    expect((await client.get('/api/user')).json().tokenUsage.balance).toBe(2000);
    const { storyId } = (
      await client.post('/api/story/start', { prompt: 'A lighthouse keeper hears knocking from the sea' })
    ).json();
    const repos = createRepositories(ctx.database.db);
    const spent = (await repos.usage.listForStory(storyId)).reduce((sum, r) => sum + r.inputTokens + r.outputTokens, 0);
    expect(spent).toBeGreaterThan(0);
    expect((await client.get('/api/user')).json().tokenUsage.balance).toBe(2000 - spent);

    await repos.usage.record({
      userId: id,
      storyId,
      kind: 'turn',
      provider: 'builtin',
      model: 'taleweaver-demo',
      inputTokens: 2000,
      createdAt: ctx.clock.now,
    });
    expect((await client.get('/api/user')).json().tokenUsage.balance).toBe(0);
    const refused = { message: "You have used this month's story allowance.", code: 'ALLOWANCE_USED' };
    for (const res of [
      await client.post(`/api/story/${storyId}/continue`, { message: 'I open the door' }),
      await client.post(`/api/story/${storyId}/retry`),
      await client.post('/api/story/start', { prompt: 'Another tale' }),
    ]) {
      expect(res.statusCode).toBe(429);
      expect(res.json()).toEqual(refused);
    }
    // Nothing was committed or called for the refused turns.
    expect((await client.get(`/api/story/${storyId}/current-state`)).json().messages).toHaveLength(2);
    expect((await repos.usage.listForStory(storyId)).filter((r) => r.kind === 'turn')).toHaveLength(2);
    // The title falls back to the premise instead of calling the narrator.
    expect((await client.get(`/api/story/${storyId}/generate-title`)).json().title).toBe(
      'A Lighthouse Keeper Hears Knocking',
    );
    expect((await repos.usage.listForStory(storyId)).filter((r) => r.kind === 'title')).toHaveLength(0);

    const monthStart = new Date(Date.UTC(ctx.clock.now.getUTCFullYear(), ctx.clock.now.getUTCMonth() + 1, 1, 0, 0, 1));
    // The player is seen half-way there, as one playing through the month is: a session slides to 30
    // days past its last request, and a run early in a 31-day month would otherwise outlast it.
    ctx.clock.advance((monthStart.getTime() - ctx.clock.now.getTime()) / 2);
    expect((await client.get('/api/user')).statusCode).toBe(200);
    ctx.clock.advance(monthStart.getTime() - ctx.clock.now.getTime());
    expect((await client.get('/api/user')).json().tokenUsage.balance).toBe(2000);
    expect((await client.post(`/api/story/${storyId}/continue`, { message: 'I open the door' })).statusCode).toBe(200);
  });
});
