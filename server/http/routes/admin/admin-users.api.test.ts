// The admin users table, usage history and CSV on a seeded database: server-side paging, search
// (username or email, LIKE characters taken literally), every sort in both directions, the two
// tabs, footer totals over all matches, per-user months, the streamed CSV's escaping across batch
// boundaries, the query validation messages, and logs that name the admin without secrets.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOG_REDACT } from '@server/app';
import { captureLog } from '@server/test/captured-log';
import { createRepositories, type Repositories } from '@server/db/repositories';
import { stories, users } from '@server/db/schema';
import { createTestApp, registerUser, type RegisteredUser, type TestContext } from '@server/test/test-app';
import { ADMIN_USER_SORT_FIELDS, type AdminUser } from '@shared/schemas/admin';

const DAY = 24 * 60 * 60_000;
let ctx: TestContext;
let repos: Repositories;
let admin: RegisteredUser;
const appLog = captureLog('info', { redact: LOG_REDACT });

interface Seeded {
  username: string;
  email: string | null;
  stories: number;
  /** [kind, input, output, image, days ago] */
  usage: Array<['turn' | 'summary' | 'title' | 'image', number, number, number, number]>;
}
// Usage dated "days ago" lands this month only when the test clock is far enough into it: the clock
// is pinned to the 20th of a month at noon UTC so 0-15 days ago is this month and 40+ is not.
const SEEDED: Seeded[] = [
  {
    username: 'Ada_Lovelace',
    email: 'ada@engine.example',
    stories: 2,
    usage: [
      ['turn', 100, 50, 0, 0],
      ['image', 0, 0, 500, 1],
      ['turn', 1000, 500, 0, 45],
    ],
  },
  {
    username: 'brian',
    email: 'brian@example.com',
    stories: 1,
    usage: [
      ['turn', 10, 10, 0, 2],
      ['summary', 300, 100, 0, 2],
    ],
  },
  { username: 'Cleo50%', email: null, stories: 0, usage: [['title', 40, 8, 0, 100]] },
  { username: 'dora', email: 'DORA@Mail.example', stories: 3, usage: [] },
  { username: '=HYPERLINK("http://x")', email: '@evil.example', stories: 0, usage: [['turn', 7, 3, 0, 0]] },
  { username: '+plus,"quoted"', email: '-minus@example.com', stories: 1, usage: [['turn', 1, 1, 0, 0]] },
];

beforeAll(async () => {
  ctx = await createTestApp({ adminUsernames: ['boss'], userMonthlyTokenLimit: 10_000 }, { logger: appLog.logger });
  const now = ctx.clock.now;
  ctx.clock.advance(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 20, 12) - now.getTime());
  repos = createRepositories(ctx.database.db);
  admin = await registerUser(ctx.app, { username: 'boss', email: 'boss@example.com' });
  for (const [i, seed] of SEEDED.entries()) {
    const [row] = await ctx.database.db
      .insert(users)
      .values({
        username: seed.username,
        email: seed.email,
        passwordHash: '$argon2id$not-a-real-hash',
        createdAt: new Date(ctx.clock.now.getTime() - (10 - i) * DAY),
      })
      .returning({ id: users.id });
    const userId = row!.id;
    for (let s = 0; s < seed.stories; s++)
      await ctx.database.db.insert(stories).values({ userId, premise: `premise ${s}` });
    for (const [kind, inputTokens, outputTokens, imageTokens, daysAgo] of seed.usage) {
      await repos.usage.record({
        userId,
        kind,
        provider: 'openai',
        model: kind === 'image' ? 'painter-1' : 'gpt-test',
        inputTokens,
        outputTokens,
        imageTokens,
        createdAt: new Date(ctx.clock.now.getTime() - daysAgo * DAY),
      });
    }
  }
});
afterAll(() => ctx.close());

const get = async (url: string) => {
  const res = await admin.client.get(url);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const names = (body: { users: AdminUser[] }) => body.users.map((u) => u.username);

describe('users table', () => {
  it('pages on the server in id order by default, with totals over every match', async () => {
    const everyone = await get('/api/admin/users');
    expect(everyone.metadata).toMatchObject({ totalUsers: 7, matchingUsers: 7, page: 1, pageSize: 50 });
    expect(names(everyone)).toEqual(['boss', ...SEEDED.map((s) => s.username)]);
    const pages = [
      await get('/api/admin/users?pageSize=3&page=1'),
      await get('/api/admin/users?pageSize=3&page=2'),
      await get('/api/admin/users?pageSize=3&page=3'),
    ];
    expect(pages.map(names)).toEqual([
      names(everyone).slice(0, 3),
      names(everyone).slice(3, 6),
      names(everyone).slice(6),
    ]);
    expect((await get('/api/admin/users?pageSize=3&page=4')).users).toEqual([]);
    // The footer sums every matching user, not only the page shown.
    expect(pages[0].metadata.totals).toEqual({
      stories: 7,
      turns: 5,
      textTokens: 2130,
      imageTokens: 500,
      total: 2630,
      thisMonth: 1082,
      monthImageTokens: 500,
      // At the spec's $4 (text) and $20 (image) a million.
      costs: { text: 0.00852, image: 0.01, total: 0.01852, thisMonth: 0.012328 },
    });
    expect(pages[0].metadata.monthTokens).toBe(1082);
    const ada = everyone.users.find((u: AdminUser) => u.username === 'Ada_Lovelace');
    expect(ada).toMatchObject({
      stories: 2,
      turns: 2,
      monthImageTokens: 500,
      tokenUsage: {
        textTokens: 1650,
        imageTokens: 500,
        total: 2150,
        thisMonth: 650,
        balance: 9350,
        monthCostUsd: 0.0106,
      },
      costs: { text: 0.0066, image: 0.01, total: 0.0166, thisMonth: 0.0106 },
    });
    expect(ada).not.toHaveProperty('passwordHash');
  });

  it('searches usernames and emails case-insensitively, taking % and _ literally', async () => {
    expect(names(await get('/api/admin/users?q=ADA'))).toEqual(['Ada_Lovelace']);
    expect(names(await get('/api/admin/users?q=mail.EXAMPLE'))).toEqual(['dora']);
    expect(names(await get('/api/admin/users?q=50%25'))).toEqual(['Cleo50%']);
    expect(names(await get('/api/admin/users?q=a_l'))).toEqual(['Ada_Lovelace']);
    expect(names(await get('/api/admin/users?q=%25'))).toEqual(['Cleo50%']);
    const some = await get('/api/admin/users?q=example.com');
    expect(names(some)).toEqual(['boss', 'brian', '+plus,"quoted"']);
    expect(some.metadata).toMatchObject({
      totalUsers: 7,
      matchingUsers: 3,
      totals: { stories: 2, turns: 2, textTokens: 422, imageTokens: 0, thisMonth: 422 },
    });
    expect((await get('/api/admin/users?q=nobody-here')).users).toEqual([]);
  });

  it('lists only users who spent tokens this month in the This Month tab', async () => {
    const month = await get('/api/admin/users?tab=month&sort=thisMonth&order=desc');
    expect(names(month)).toEqual(['Ada_Lovelace', 'brian', '=HYPERLINK("http://x")', '+plus,"quoted"']);
    expect(month.users.map((u: AdminUser) => u.tokenUsage.thisMonth)).toEqual([650, 420, 10, 2]);
    expect(month.metadata).toMatchObject({ matchingUsers: 4, totals: { thisMonth: 1082, stories: 4 } });
    expect(names(await get('/api/admin/users?tab=month&q=brian'))).toEqual(['brian']);
  });

  it('sorts by every column both ways, ties broken by id in the same direction', async () => {
    const all: AdminUser[] = (await get('/api/admin/users')).users;
    const key: Record<(typeof ADMIN_USER_SORT_FIELDS)[number], (u: AdminUser) => string | number> = {
      username: (u) => u.username.toLowerCase(),
      email: (u) => u.email?.toLowerCase() ?? '\uffff',
      createdAt: (u) => u.createdAt,
      lastActive: (u) => u.lastActive ?? u.createdAt,
      stories: (u) => u.stories,
      turns: (u) => u.turns,
      textTokens: (u) => u.tokenUsage.textTokens,
      imageTokens: (u) => u.tokenUsage.imageTokens,
      total: (u) => u.tokenUsage.total,
      thisMonth: (u) => u.tokenUsage.thisMonth,
    };
    for (const field of ADMIN_USER_SORT_FIELDS) {
      const compare = (a: AdminUser, b: AdminUser) => {
        const [x, y] = [key[field](a), key[field](b)];
        return x < y ? -1 : x > y ? 1 : a.id - b.id;
      };
      const ascending = [...all].sort(compare).map((u) => u.username);
      expect(names(await get(`/api/admin/users?sort=${field}&order=asc`)), `${field} asc`).toEqual(ascending);
      // PostgreSQL puts blanks first when descending, as its index reads them backwards.
      const descending = [...all].sort((a, b) => compare(b, a)).map((u) => u.username);
      expect(names(await get(`/api/admin/users?sort=${field}&order=desc`)), `${field} desc`).toEqual(descending);
    }
    expect(names(await get('/api/admin/users?sort=total&order=desc&pageSize=2&page=2'))).toEqual([
      'Cleo50%',
      '=HYPERLINK("http://x")',
    ]);
  });

  it('answers 400 with a clear message for a bad parameter, and 404 for an unknown user', async () => {
    const cases: Array<[string, string]> = [
      [
        '/api/admin/users?sort=password',
        'Sort must be one of: username, email, createdAt, lastActive, stories, turns, textTokens, imageTokens, total, thisMonth',
      ],
      ['/api/admin/users?order=up', 'Order must be "asc" or "desc"'],
      ['/api/admin/users?tab=week', 'Tab must be "all" or "month"'],
      ['/api/admin/users?page=0', 'Page must be a whole number from 1'],
      ['/api/admin/users?page=two', 'Page must be a whole number from 1'],
      ['/api/admin/users?pageSize=201', 'Page size must be a whole number from 1 to 200'],
      [`/api/admin/users?q=${'x'.repeat(101)}`, 'Search must be at most 100 characters'],
      ['/api/admin/usage/history?days=7', 'Days must be 30 or 90'],
      ['/api/admin/users/abc/usage', 'User id must be a number'],
    ];
    for (const [url, message] of cases) {
      const res = await admin.client.get(url);
      expect(res.statusCode, url).toBe(400);
      expect(res.json(), url).toMatchObject({ code: 'VALIDATION_ERROR', message });
    }
    const missing = await admin.client.get('/api/admin/users/999999/usage');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ code: 'NOT_FOUND', message: 'User not found' });
  });
});

describe('usage history', () => {
  it('gives every day of the period by kind with its cost, and the period by provider and model', async () => {
    const recent = await get('/api/admin/usage/history');
    expect(recent.days).toBe(30);
    expect(recent.daily).toHaveLength(30);
    const today = ctx.clock.now.toISOString().slice(0, 10);
    expect(recent.to).toBe(today);
    expect(recent.daily.at(-1)).toEqual({
      day: today,
      turn: 150 + 10 + 2,
      'retry-loop': 0,
      summary: 0,
      title: 0,
      image: 0,
      style: 0,
      embedding: 0,
      cost: 0.000648,
    });
    expect(recent.daily.at(-2)).toMatchObject({ turn: 0, image: 500, cost: 0.01 });
    expect(recent.daily.at(-3)).toMatchObject({ turn: 20, summary: 400 });
    expect(recent.byModel).toEqual([
      { provider: 'openai', model: 'painter-1', calls: 1, input: 0, output: 0, image: 500, characters: 0, cost: 0.01 },
      {
        provider: 'openai',
        model: 'gpt-test',
        calls: 5,
        input: 418,
        output: 164,
        image: 0,
        characters: 0,
        cost: 0.002328,
      },
    ]);
    const quarter = await get('/api/admin/usage/history?days=90');
    expect(quarter.daily).toHaveLength(90);
    expect(quarter.daily.reduce((sum: number, d: { turn: number }) => sum + d.turn, 0)).toBe(162 + 20 + 1500);
    // 100 days ago is outside both periods.
    expect(quarter.daily.every((d: { title: number }) => d.title === 0)).toBe(true);
  });

  it("gives one user's months, newest first", async () => {
    const ada = (await get('/api/admin/users?q=ada')).users[0];
    const usage = await get(`/api/admin/users/${ada.id}/usage`);
    expect(usage.user).toEqual({ id: ada.id, username: 'Ada_Lovelace' });
    const thisMonth = ctx.clock.now.toISOString().slice(0, 7);
    expect(usage.months[0]).toEqual({
      month: thisMonth,
      calls: 2,
      input: 100,
      output: 50,
      image: 500,
      characters: 0,
      cost: 0.0106,
    });
    expect(usage.months).toHaveLength(2);
    expect(usage.months[1]).toMatchObject({ calls: 1, input: 1000, output: 500, cost: 0.006 });
  });
});

describe('users CSV', () => {
  it('streams every user across batches, defusing formulas and quoting, with no hash or session', async () => {
    // Enough users for two database batches, so the keyset walk is exercised.
    await ctx.database.db.execute(
      sql`insert into users (username, email, password_hash) select 'bulk' || g, 'bulk' || g || '@example.com', '$argon2id$secret' from generate_series(1, 2100) g`,
    );
    const res = await admin.client.get('/api/admin/users/download');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    const lines = res.body.trimEnd().split('\r\n');
    expect(lines).toHaveLength(1 + 7 + 2100);
    const ids = lines.slice(1).map((l) => Number(l.split(',')[0]));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(ids.length);
    const formula = lines.find((l) => l.includes('HYPERLINK'))!;
    expect(formula).toMatch(/^\d+,"'=HYPERLINK\(""http:\/\/x""\)",'@evil\.example,false,/);
    expect(lines.find((l) => l.includes('plus'))).toMatch(/^\d+,"'\+plus,""quoted""",'-minus@example\.com,false,/);
    expect(lines.find((l) => l.includes('Cleo50%'))).toMatch(/^\d+,Cleo50%,,false,[^,]+,,0,0,48,0,48,0,10000$/);
    const session = admin.client.cookies.get('tw_session') as string;
    for (const secret of ['argon2', 'password', session]) expect(res.body).not.toContain(secret);

    const log = appLog.text();
    expect(log).toContain('admin downloaded the users CSV');
    expect(appLog.lines.find((line) => line.msg === 'admin downloaded the users CSV')).toMatchObject({
      adminId: admin.id,
    });
    for (const secret of [session, admin.password, 'argon2']) expect(log).not.toContain(secret);
  });
});
