// Costs per narrator, through the API and the wire of a fake OpenAI-compatible server: each ledger
// row names the narrator that made the call (a side call its task's narrator), the admin's card and
// history price each narrator's tokens with its own prices, a row from before the catalogue counts
// as `default`, and the same rows come as a CSV; /metrics labels turns and tokens by narrator. No
// answer shows a key, its variable or an address.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepositories } from '@server/db/repositories';
import { catalogueConfig } from '@server/test/config-env';
import { startFakeLlmServer, type FakeLlmServer } from '@server/test/fake-llm-server';
import { createTestApp, registerUser, type TestContext } from '@server/test/test-app';
import { proseWriter } from '@server/test/varied-prose';

const KEY = 'sk-costs-secret';
let fake: FakeLlmServer;
let ctx: TestContext;

/** What the fake provider reports for each model's calls, so every figure below is exact. */
const USAGE = {
  'small-model': { input: 1000, cached: 400, output: 200 },
  'big-model': { input: 3000, cached: 0, output: 500 },
} as const;

const narrator = (id: string, model: string, prices: Record<string, number>) => ({
  id,
  label: id[0].toUpperCase() + id.slice(1),
  provider: 'openai',
  baseUrl: fake.baseUrl,
  apiKeyEnv: 'COSTS_KEY',
  model,
  contextTokens: 8192,
  prices,
});

beforeAll(async () => {
  fake = await startFakeLlmServer({ apiKey: KEY });
  const writer = proseWriter(30);
  fake.fallback = (request) => ({
    kind: 'ok',
    text: writer.reply(),
    usage: USAGE[request.body.model as keyof typeof USAGE],
  });
  ctx = await createTestApp({
    ...catalogueConfig(
      {
        default: 'swift',
        tasks: { title: 'swift' },
        narrators: [
          narrator('swift', 'small-model', { input: 1, cachedInput: 0.5, output: 2 }),
          narrator('deep', 'big-model', { input: 10, output: 30 }),
        ],
      },
      { COSTS_KEY: KEY },
    ),
    adminUsernames: ['boss'],
  });
});
afterAll(async () => {
  await ctx.close();
  await fake.close();
});

describe('costs per narrator', () => {
  it('names the narrator on every ledger row and prices each with its own prices on the card, the history and the CSV', async () => {
    const player = await registerUser(ctx.app);
    const start = async () =>
      (await player.client.post('/api/story/start', { prompt: 'Two rivers meet under a city' })).json()
        .storyId as number;
    const onSwift = await start();
    const onDeep = await start();
    expect((await player.client.patch(`/api/story/${onDeep}/settings`, { narrator: 'deep' })).statusCode).toBe(200);
    for (const message of ['I follow the left river', 'I dive where they meet']) {
      expect((await player.client.post(`/api/story/${onDeep}/continue`, { message })).statusCode).toBe(200);
    }
    // The title is the operator's task narrator's call, whoever writes the story.
    expect((await player.client.get(`/api/story/${onDeep}/generate-title`)).statusCode).toBe(200);
    // A row written before the catalogue: one narrator wrote everything, and it counts as `default`.
    await ctx.database.executeSql(
      `insert into usage_events (user_id, kind, provider, model, input_tokens, output_tokens) values ($1, 'turn', 'openai', 'old-model', 100000, 0)`,
      [player.id],
    );

    const repos = createRepositories(ctx.database.db);
    const rowsOf = async (storyId: number) =>
      (await repos.usage.listForStory(storyId)).map((row) => [row.kind, row.narrator, row.model]);
    expect(await rowsOf(onSwift)).toEqual([['turn', 'swift', 'small-model']]);
    expect(await rowsOf(onDeep)).toEqual([
      ['turn', 'swift', 'small-model'],
      ['turn', 'deep', 'big-model'],
      ['turn', 'deep', 'big-model'],
      ['title', 'swift', 'small-model'],
    ]);

    const admin = await registerUser(ctx.app, { username: 'boss' });
    const usage = await admin.client.get('/api/admin/api-usage');
    expect(usage.statusCode).toBe(200);
    // swift: three calls of 1000 in (400 cached) and 200 out at $1 / $0.50 / $2 a million.
    const swift = { input: 3000, cachedInput: 1200, output: 600, cost: (1800 * 1 + 1200 * 0.5 + 600 * 2) / 1e6 };
    // deep: two calls of 3000 in and 500 out at $10 / $30 a million.
    const deep = { input: 6000, cachedInput: 0, output: 1000, cost: (6000 * 10 + 1000 * 30) / 1e6 };
    // The old row, at the default narrator's (swift's) prices.
    const old = { input: 100_000, cachedInput: 0, output: 0, cost: 100_000 / 1e6 };
    const month = swift.input + swift.output + deep.input + deep.output + old.input;
    const body = usage.json();
    expect(body.byNarrator).toEqual([
      { id: 'swift', label: 'Swift', inCatalogue: true, total: swift, thisMonth: swift, monthShare: 3600 / month },
      { id: 'deep', label: 'Deep', inCatalogue: true, total: deep, thisMonth: deep, monthShare: 7000 / month },
      { id: 'default', label: 'default', inCatalogue: false, total: old, thisMonth: old, monthShare: 100_000 / month },
    ]);
    // The card's totals are every narrator's, each priced at its own prices; the card names the default.
    expect(body.total).toEqual({ input: 109_000, output: 1600, image: 0 });
    expect(body.costs.total.total).toBeCloseTo(swift.cost + deep.cost + old.cost, 6);
    expect(body.costs.total.output).toBeCloseTo((600 * 2 + 1000 * 30) / 1e6, 6);
    expect(body).toMatchObject({ model: 'small-model', prices: { inputPerMillion: 1, outputPerMillion: 2 } });

    const history = (await admin.client.get('/api/admin/usage/history?days=30')).json();
    expect(history.daily.at(-1).cost).toBeCloseTo(swift.cost + deep.cost + old.cost, 6);
    const modelCost = Object.fromEntries(
      history.byModel.map((row: { model: string; cost: number }) => [row.model, row.cost]),
    );
    expect(modelCost).toEqual({ 'old-model': old.cost, 'big-model': deep.cost, 'small-model': swift.cost });

    const csv = await admin.client.get('/api/admin/api-usage/download');
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toMatch(
      /^attachment; filename="taleweaver-narrators-\d{4}-\d{2}\.csv"$/,
    );
    expect(csv.body.trimEnd().split('\r\n')).toEqual([
      'id,label,inCatalogue,input,cachedInput,output,cost,thisMonthInput,thisMonthCachedInput,thisMonthOutput,thisMonthCost,monthShare',
      `swift,Swift,true,3000,1200,600,${swift.cost},3000,1200,600,${swift.cost},${((3600 / month) * 100).toFixed(1)}`,
      `deep,Deep,true,6000,0,1000,${deep.cost},6000,0,1000,${deep.cost},${((7000 / month) * 100).toFixed(1)}`,
      `default,default,false,100000,0,0,${old.cost},100000,0,0,${old.cost},${((100_000 / month) * 100).toFixed(1)}`,
    ]);

    // /metrics: the turns and tokens by narrator, from the catalogue's ids.
    const metrics = (await ctx.app.inject({ method: 'GET', url: '/metrics' })).body;
    const sample = (name: string, labels: string) =>
      Number(new RegExp(`^${name}\\{${labels}\\} (\\S+)$`, 'm').exec(metrics)?.[1] ?? NaN);
    expect(sample('taleweaver_narrator_turns_total', 'provider="openai",narrator="swift",outcome="done"')).toBe(2);
    expect(sample('taleweaver_narrator_turns_total', 'provider="openai",narrator="deep",outcome="done"')).toBe(2);
    expect(sample('taleweaver_tokens_total', 'kind="turn",narrator="deep",direction="input"')).toBe(6000);
    expect(sample('taleweaver_tokens_total', 'kind="turn",narrator="swift",direction="input"')).toBe(2000);
    expect(sample('taleweaver_tokens_total', 'kind="title",narrator="swift",direction="output"')).toBe(200);

    // A player is refused the file, and no answer names a key, its variable or an address.
    expect((await player.client.get('/api/admin/api-usage/download')).statusCode).toBe(403);
    for (const answer of [usage.body, csv.body, JSON.stringify(history), metrics]) {
      for (const secret of [KEY, 'COSTS_KEY', fake.baseUrl]) expect(answer).not.toContain(secret);
    }
  });
});
