// GET /api/narrators: visitors and players see the narrators open to everyone, admins every one, in
// the catalogue's order with the default marked; never an address, a key or its variable, or a price.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogueConfig } from '@server/test/config-env';
import { createTestApp, registerUser, TestClient, type TestContext } from '@server/test/test-app';

let ctx: TestContext;

beforeAll(async () => {
  const catalogue = catalogueConfig(
    {
      default: 'swift',
      narrators: [
        {
          id: 'swift',
          label: 'Swift',
          description: 'Quick and cheap.',
          provider: 'openai',
          baseUrl: 'http://127.0.0.1:9/v1',
          apiKeyEnv: 'SWIFT_KEY',
          model: 'small-model',
          contextTokens: 8192,
          prices: { input: 0.15, output: 0.6 },
        },
        { id: 'trial', label: 'Trial', provider: 'builtin', contextTokens: 32768, access: 'admins' },
        { id: 'demo', label: 'Demo', description: 'Offline.', provider: 'builtin', contextTokens: 4096 },
      ],
    },
    { SWIFT_KEY: 'sk-swift-secret' },
  );
  ctx = await createTestApp({ ...catalogue, adminUsernames: ['boss'] });
});
afterAll(() => ctx.close());

let adminClient: TestClient | undefined;
/** The admin 'boss', signed up on first use. */
async function admin(): Promise<TestClient> {
  adminClient ??= (await registerUser(ctx.app, { username: 'boss' })).client;
  return adminClient;
}

const everyone = [
  { id: 'swift', label: 'Swift', description: 'Quick and cheap.', contextTokens: 8192, default: true },
  { id: 'demo', label: 'Demo', description: 'Offline.', contextTokens: 4096, default: false },
];

describe('GET /api/narrators', () => {
  it('offers a visitor and a player the narrators open to everyone, and an admin all of them', async () => {
    const visitor = await new TestClient(ctx.app).get('/api/narrators');
    expect(visitor.statusCode).toBe(200);
    expect(visitor.json()).toEqual({ narrators: everyone });

    const player = await registerUser(ctx.app);
    expect((await player.client.get('/api/narrators')).json()).toEqual({ narrators: everyone });

    const all = (await (await admin()).get('/api/narrators')).json();
    expect(all.narrators.map((narrator: { id: string }) => narrator.id)).toEqual(['swift', 'trial', 'demo']);
    expect(all.narrators[1]).toEqual({
      id: 'trial',
      label: 'Trial',
      description: '',
      contextTokens: 32768,
      default: false,
    });
  });

  it('never tells an address, a key or the variable holding it, or a price', async () => {
    // The admin's answer: every narrator, the one with a key and prices among them.
    const text = (await (await admin()).get('/api/narrators')).body;
    for (const secret of ['127.0.0.1', 'SWIFT_KEY', 'sk-swift-secret', 'small-model', '0.15', 'prices', 'baseUrl']) {
      expect(text).not.toContain(secret);
    }
  });
});
