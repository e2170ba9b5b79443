// Preferences API: defaults for visitors and new players, one-field updates that keep the others,
// validation, 401 'Not authenticated' for visitors, per-player storage, and the narrator's system
// prompt reflecting a change on the very next turn.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBuiltinNarrator } from '@server/ai/llm/builtin';
import type { GenerationRequest, NarratorProvider } from '@server/ai/llm/types';
import { createTestApp, registerUser, TestClient, type TestContext } from '@server/test/test-app';

const DEFAULTS = {
  contentRating: 'general',
  narrativeStyle: 'descriptive',
  languageStyle: 'modern',
  imageGeneration: false,
  // The catalogue of one that LLM_* settings make (story-narrator.api.test.ts picks among several).
  narrator: 'default',
};
const requests: GenerationRequest[] = [];
let ctx: TestContext;
beforeAll(async () => {
  const builtin = createBuiltinNarrator({ builtinWordDelayMs: 0 });
  const spy: NarratorProvider = {
    ...builtin,
    generate: (request, onDelta) => (requests.push(request), builtin.generate(request, onDelta)),
  };
  ctx = await createTestApp({}, { narrator: spy });
});
afterAll(() => ctx.close());

describe('GET /api/preferences', () => {
  it('answers the defaults to visitors and to players who never changed anything', async () => {
    const visitor = await new TestClient(ctx.app).get('/api/preferences');
    expect(visitor.statusCode).toBe(200);
    expect(visitor.json()).toEqual(DEFAULTS);
    const { client } = await registerUser(ctx.app);
    const player = await client.get('/api/preferences');
    expect(player.json()).toEqual(DEFAULTS);
    expect(player.headers['cache-control']).toBe('no-store');
  });
});

describe('POST /api/preferences', () => {
  it('changes one field, answers the full set and keeps it', async () => {
    const { client } = await registerUser(ctx.app);
    const first = await client.post('/api/preferences', { narrativeStyle: 'concise' });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ ...DEFAULTS, narrativeStyle: 'concise' });
    const second = await client.post('/api/preferences', { languageStyle: 'archaic' });
    expect(second.json()).toEqual({ ...DEFAULTS, narrativeStyle: 'concise', languageStyle: 'archaic' });
    expect((await client.get('/api/preferences')).json()).toEqual({
      ...DEFAULTS,
      contentRating: 'general',
      narrativeStyle: 'concise',
      languageStyle: 'archaic',
    });
    const rating = await client.post('/api/preferences', { contentRating: 'teen' });
    expect(rating.json()).toEqual({
      ...DEFAULTS,
      contentRating: 'teen',
      narrativeStyle: 'concise',
      languageStyle: 'archaic',
    });
  });

  it("keeps each player's preferences to themselves", async () => {
    const a = await registerUser(ctx.app);
    const b = await registerUser(ctx.app);
    await a.client.post('/api/preferences', { contentRating: 'mature' });
    expect((await b.client.get('/api/preferences')).json()).toEqual(DEFAULTS);
    expect((await a.client.get('/api/preferences')).json().contentRating).toBe('mature');
  });

  it('refuses values outside the lists and a body that changes nothing', async () => {
    const { client } = await registerUser(ctx.app);
    const cases: Array<[unknown, string | RegExp]> = [
      [{ contentRating: 'explicit' }, 'Content rating must be one of: general, teen, mature'],
      [{ narrativeStyle: 'verbose' }, 'Narrative style must be one of: descriptive, concise, dramatic'],
      [{ languageStyle: 42 }, 'Language style must be one of: modern, archaic, formal'],
      [{}, 'Send a preference to change: contentRating, narrativeStyle, languageStyle, imageGeneration or narrator.'],
      [
        { colour: 'blue' },
        'Send a preference to change: contentRating, narrativeStyle, languageStyle, imageGeneration or narrator.',
      ],
    ];
    for (const [body, message] of cases) {
      const res = await client.post('/api/preferences', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().code).toBe('VALIDATION_ERROR');
      expect(res.json().message).toMatch(message);
    }
    const notObject = await client.post('/api/preferences', '"teen"');
    expect(notObject.statusCode).toBe(400);
    // Nothing was saved by the refused requests.
    expect((await client.get('/api/preferences')).json()).toEqual(DEFAULTS);
  });

  it("answers 401 'Not authenticated' to visitors, whatever they send", async () => {
    const visitor = new TestClient(ctx.app);
    for (const body of [{ contentRating: 'teen' }, { contentRating: 'nonsense' }]) {
      const res = await visitor.post('/api/preferences', body);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ message: 'Not authenticated', code: 'UNAUTHENTICATED' });
    }
  });
});

describe('preferences and the narrator', () => {
  it("reach the narrator's system prompt on the next turn", async () => {
    const { client } = await registerUser(ctx.app);
    const started = await client.post('/api/story/start', { prompt: 'A knight guards a bridge no one crosses' });
    expect(started.statusCode).toBe(200);
    const opening = requests.filter((r) => r.task.kind === 'turn').at(-1)!;
    expect(opening.system).toContain('- Content rating general:');
    expect(opening.system).toContain('- Narrative style descriptive:');
    expect(opening.system).toContain('- Language style modern:');

    await client.post('/api/preferences', { contentRating: 'mature' });
    await client.post('/api/preferences', { narrativeStyle: 'dramatic' });
    await client.post('/api/preferences', { languageStyle: 'archaic' });
    const turn = await client.post(`/api/story/${started.json().storyId}/continue`, {
      message: 'I challenge the stranger',
    });
    expect(turn.statusCode).toBe(200);
    const next = requests.filter((r) => r.task.kind === 'turn').at(-1)!;
    expect(next.system).toContain('- Content rating mature:');
    expect(next.system).toContain('- Narrative style dramatic:');
    expect(next.system).toContain('- Language style archaic:');
    expect(next.system).not.toContain('- Content rating general:');
  });
});
