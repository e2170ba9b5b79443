// Every paid narrator call inside the player's limits: parallel turns cannot all pass on
// one remaining balance (the month's cost is reserved before the call; calls that waited behind a
// refusal share it without asking the database again), turns have an hourly rate,
// titles and summaries are side calls with one of their own, a reservation left by a dead process
// expires, and a GET another site's page could have made starts no paid work.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fallbackTitle } from '@server/ai/llm/titles';
import { loadConfig } from '@server/kernel/config';
import { DomainError } from '@server/kernel/errors';
import { statusOf } from '@server/http/error-status';
import { createRepositories } from '@server/db/repositories';
import { allowanceConfig, createAllowance } from '@server/domains/limits/allowance';
import { cleanExpired } from '@server/jobs/housekeeping';
import { startFakeLlmServer, type FakeLlmServer } from '@server/test/fake-llm-server';
import { proseWriter } from '@server/test/varied-prose';
import { createTestApp, registerUser, type TestContext, fakeLlmConfig } from '@server/test/test-app';

const KEY = 'sk-allowance-test';
const LIMIT = 4000;
let fake: FakeLlmServer;
let ctx: TestContext;
/** The same database and narrator, with small hourly rates. */
let hourly: TestContext;

beforeAll(async () => {
  fake = await startFakeLlmServer({ apiKey: KEY });
  const llm = fakeLlmConfig(fake, KEY, {
    LLM_TIMEOUT_MS: '5000',
  });
  ctx = await createTestApp({ llm, userMonthlyTokenLimit: LIMIT });
  hourly = await createTestApp(
    { llm, userMonthlyTokenLimit: LIMIT, narratorCallsPerHour: { turns: 6, sideCalls: 2 } },
    { database: ctx.database },
  );
});
afterAll(async () => {
  await hourly.app.close();
  await ctx.close();
  await fake.close();
});
afterEach(() => {
  fake.queue.length = 0;
  fake.fallback = { kind: 'ok' };
});

const ALLOWANCE_USED = { message: "You have used this month's story allowance.", code: 'ALLOWANCE_USED' };
const repos = () => createRepositories(ctx.database.db);

describe('the monthly allowance', () => {
  it('lets one of 50 parallel story starts through on a fresh allowance, not all 50, and writes nothing for the others', async () => {
    const { client, id } = await registerUser(ctx.app);
    // Every reply takes a while, so all 50 are in flight together.
    fake.fallback = {
      kind: 'ok',
      text: 'The gate groans open onto a street of lanterns. What do you do?',
      usage: { input: 900, output: 100 },
      ttftMs: 400,
    };
    const before = fake.requests.length;
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        client.post('/api/story/start', { prompt: `A thief's ${i + 1}th night in the city of lanterns` }),
      ),
    );
    const passed = answers.filter((a) => a.statusCode === 200);
    const refused = answers.filter((a) => a.statusCode === 429);
    expect(passed).toHaveLength(1);
    expect(refused).toHaveLength(49);
    for (const answer of refused) expect(answer.json()).toEqual(ALLOWANCE_USED);
    // One call made, one story kept: the refused starts left no premise behind.
    expect(fake.requests.length - before).toBe(1);
    expect((await client.get('/api/stories')).json().stories).toHaveLength(1);
    expect((await repos().allowance.usage(id, ctx.clock.now)).held).toBe(0);
    expect((await client.get('/api/user')).json().tokenUsage.balance).toBe(LIMIT - 1000);
  });

  it('asks the database for 50 reservations sent at once only until one is refused, and asks again after', async () => {
    const { id } = await registerUser(ctx.app);
    const real = repos().allowance;
    let asked = 0;
    const allowance = createAllowance({
      repos: { allowance: { ...real, reserve: (input) => ((asked += 1), real.reserve(input)) } },
      limiter: { allow: async () => true },
      config: allowanceConfig(loadConfig({ USER_MONTHLY_TOKEN_LIMIT: String(LIMIT) })),
      now: () => ctx.clock.now,
      log: ctx.app.log,
    });
    const results = await Promise.allSettled(Array.from({ length: 50 }, () => allowance.reserve(id, 'turn', LIMIT)));
    const granted = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    const refused = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as DomainError] : []));
    expect(granted).toHaveLength(1);
    expect(refused.map((r) => [r instanceof DomainError, r.kind, statusOf(r), r.message])).toEqual(
      Array.from({ length: 49 }, () => [true, 'limited', 429, ALLOWANCE_USED.message]),
    );
    // The first was granted, the second refused by the database; the 48 that waited behind it shared its answer.
    expect(asked).toBe(2);
    expect((await repos().allowance.usage(id, ctx.clock.now)).held).toBe(LIMIT);
    // A refusal is not remembered past the calls that waited for it: once the hold is given back, the next call asks and passes.
    await granted[0].release();
    await expect(allowance.reserve(id, 'turn', LIMIT)).resolves.toBeDefined();
    expect(asked).toBe(3);
  });

  it('refuses the call once the month is spent and takes back nothing a finished call reserved', async () => {
    const { client, id } = await registerUser(ctx.app);
    fake.fallback = {
      kind: 'ok',
      text: 'Rain hammers the tin roof above you. What do you do?',
      usage: { input: 1500, output: 600 },
    };
    const { storyId } = (
      await client.post('/api/story/start', { prompt: 'A radio operator alone on a weather station' })
    ).json();
    expect((await client.post(`/api/story/${storyId}/continue`, { message: 'I tune the radio' })).statusCode).toBe(200);
    // 4,200 of 4,000 used: the last call crossed the line, the next one does not start.
    expect((await repos().allowance.usage(id, ctx.clock.now)).used).toBe(4200);
    const before = fake.requests.length;
    const refused = await client.post(`/api/story/${storyId}/continue`, { message: 'I call for help' });
    expect([refused.statusCode, refused.json()]).toEqual([429, ALLOWANCE_USED]);
    expect(fake.requests.length).toBe(before);
    expect((await client.get(`/api/story/${storyId}/current-state`)).json().messages).toHaveLength(4);
  });

  it('counts a reservation left by a dead process until it expires, and housekeeping deletes it', async () => {
    const { client, id } = await registerUser(ctx.app);
    const hold = await repos().allowance.reserve({
      userId: id,
      tokens: LIMIT,
      limit: LIMIT,
      now: ctx.clock.now,
      expiresAt: new Date(ctx.clock.now.getTime() + 120_000),
    });
    expect(hold).not.toBeNull();
    const refused = await client.post('/api/story/start', { prompt: 'A diver finds a door on the sea floor' });
    expect([refused.statusCode, refused.json()]).toEqual([429, ALLOWANCE_USED]);
    ctx.clock.advance(121_000);
    expect(
      (await client.post('/api/story/start', { prompt: 'A diver finds a door on the sea floor' })).statusCode,
    ).toBe(200);
    await cleanExpired(repos(), ctx.clock.now);
    expect(await repos().allowance.usage(id, ctx.clock.now)).toMatchObject({ held: 0 });
  });
});

describe('hourly rates', () => {
  it('allows USER_TURNS_PER_HOUR turns, retries included, then answers 429 without calling or keeping anything', async () => {
    const { client } = await registerUser(hourly.app);
    // Varied replies, as a narrator writes: one said word for word every turn would be caught by the
    // loop guard, whose second calls count among the hour's turns too.
    const writer = proseWriter(41);
    fake.fallback = () => ({ kind: 'ok', text: writer.reply(), usage: { input: 100, output: 20 } });
    const { storyId } = (
      await client.post('/api/story/start', { prompt: 'A courier crosses the pass in winter' })
    ).json();
    for (const message of ['I walk', 'I rest', 'I climb'])
      expect((await client.post(`/api/story/${storyId}/continue`, { message })).statusCode).toBe(200);
    expect((await client.post(`/api/story/${storyId}/retry`)).statusCode).toBe(200);
    expect((await client.post(`/api/story/${storyId}/continue`, { message: 'I light a fire' })).statusCode).toBe(200);
    const before = fake.requests.length;
    const state = (await client.get(`/api/story/${storyId}/current-state`)).json();
    for (const refused of [
      await client.post(`/api/story/${storyId}/continue`, { message: 'I sleep' }),
      await client.post(`/api/story/${storyId}/retry`),
      await client.post('/api/story/start', { prompt: 'Another courier' }),
    ]) {
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toEqual({
        message: 'You have asked the narrator for too many turns this hour. Please wait a little before the next one.',
        code: 'RATE_LIMITED',
      });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect(fake.requests.length).toBe(before);
    expect((await client.get(`/api/story/${storyId}/current-state`)).json()).toEqual(state);
    hourly.clock.advance(3_600_000);
    expect((await client.post(`/api/story/${storyId}/continue`, { message: 'I sleep' })).statusCode).toBe(200);
  });

  it('counts titles as side calls: past USER_SIDE_CALLS_PER_HOUR a title comes from the premise without a call', async () => {
    const { client } = await registerUser(hourly.app);
    fake.fallback = { kind: 'ok', text: 'Fog rolls over the moor. What do you do?', usage: { input: 100, output: 20 } };
    const storyIds: number[] = [];
    for (const prompt of [
      'A shepherd hears bells under the hill',
      'A miller grinds moonlight',
      'A tinker mends a clock that runs backwards',
    ]) {
      storyIds.push((await client.post('/api/story/start', { prompt })).json().storyId);
    }
    fake.fallback = { kind: 'ok', text: 'The Bells Below', usage: { input: 60, output: 4 } };
    expect((await client.get(`/api/story/${storyIds[0]}/generate-title`)).json().title).toBe('The Bells Below');
    expect((await client.get(`/api/story/${storyIds[1]}/generate-title`)).json().title).toBe('The Bells Below');
    const before = fake.requests.length;
    expect((await client.get(`/api/story/${storyIds[2]}/generate-title`)).json().title).toBe(
      fallbackTitle('A tinker mends a clock that runs backwards'),
    );
    expect(fake.requests.length).toBe(before);
  });
});

describe('paid work from another site', () => {
  it('answers a cross-site generate-title from the premise without calling the narrator or keeping a title', async () => {
    const { client } = await registerUser(ctx.app);
    fake.fallback = {
      kind: 'ok',
      text: 'A bell tolls in the drowned city. What do you do?',
      usage: { input: 100, output: 20 },
    };
    const { storyId } = (await client.post('/api/story/start', { prompt: 'A bell ringer in a drowned city' })).json();
    const before = fake.requests.length;
    // A link on another site: the browser says cross-site, and no page of another site can add X-Requested-With.
    // (An empty Sec-Fetch-Site stands for a browser that sends none.)
    for (const site of ['cross-site', 'same-site', '']) {
      const foreign = await client.request({
        method: 'GET',
        url: `/api/story/${storyId}/generate-title`,
        headers: { 'sec-fetch-site': site },
      });
      expect([foreign.statusCode, foreign.json().title]).toEqual([
        200,
        fallbackTitle('A bell ringer in a drowned city'),
      ]);
    }
    expect(fake.requests.length).toBe(before);
    // The app's own call (X-Requested-With, for browsers without Fetch Metadata) names it, once.
    fake.fallback = { kind: 'ok', text: 'The Drowned Bell', usage: { input: 60, output: 4 } };
    const own = await client.request({
      method: 'GET',
      url: `/api/story/${storyId}/generate-title`,
      headers: { 'sec-fetch-site': '', 'x-requested-with': 'XMLHttpRequest' },
    });
    expect(own.json().title).toBe('The Drowned Bell');
    expect(fake.requests.length).toBe(before + 1);
  });
});
