// Story cards as files: a lorebook in the formats players already have (SillyTavern World Info,
// a character card as JSON or PNG, a NovelAI lorebook) imported through the API, the entries that
// cannot be used listed and nothing imported from a file that is not one; a SillyTavern export that
// imports back unchanged; and the cards travelling with the story (its JSON file, version 3, and its
// branches), counted in the owner's stored text.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, fixtureJson, pngCard } from '@server/domains/story/cards/formats/testing';
import { quotaCounters } from '@server/test/quota-counters';
import { importCards, newStory } from '@server/test/card-imports';
import { createTestApp, registerUser, type TestClient, type TestContext } from '@server/test/test-app';
import { STORY_CARD_MESSAGES, type StoryCard } from '@shared/schemas/story-cards';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

const cardsOf = async (client: TestClient, storyId: number) =>
  (await client.get(`/api/story/${storyId}/cards`)).json().cards as StoryCard[];
/** A card's own fields, without what the server adds. */
const fields = ({ id: _id, tokens: _t, createdAt: _c, updatedAt: _u, ...rest }: StoryCard) => rest;

describe('POST /api/story/{id}/cards/import', () => {
  it('imports a SillyTavern World Info file, listing what it left out', async () => {
    const { client, id } = await registerUser(ctx.app);
    const storyId = await newStory(client);
    const res = await importCards(client, storyId, fixture('sillytavern-modern.json'));
    expect(res.statusCode, res.body).toBe(201);
    const answer = res.json();
    expect(answer.imported).toBe(3);
    expect(answer.cards.map((c: StoryCard) => [c.name, c.alwaysOn, c.enabled])).toEqual([
      ['Eldoria', true, true],
      ['Captain Mara Voss', false, true],
      ['The Drowned Chapel', false, false],
    ]);
    expect(answer.cards[1].keys).toEqual(['/\\bMara( Voss)?\\b/i', 'the captain']);
    expect(answer.ignored.map((i: { entry: string }) => i.entry)).toContain('Tide Council (todo)');
    expect((await cardsOf(client, storyId)).map((c) => c.name)).toEqual(answer.cards.map((c: StoryCard) => c.name));
    const counters = await quotaCounters(ctx.database, id);
    expect(counters.counted).toEqual(counters.actual);
  });

  it('imports the old, minimal SillyTavern fields, character cards as JSON and PNG, and NovelAI lorebooks', async () => {
    const { client } = await registerUser(ctx.app);
    const storyId = await newStory(client);
    const imported = async (body: Uint8Array, type?: string) => {
      const res = await importCards(client, storyId, body, type);
      expect(res.statusCode, res.body).toBe(201);
      return res.json().imported as number;
    };
    expect(await imported(fixture('sillytavern-old.json'))).toBeGreaterThan(0);
    expect(await imported(fixture('chara-card-v2.json'))).toBeGreaterThan(0);
    expect(await imported(pngCard(fixtureJson('chara-card-v3.json'), 'ccv3'), 'image/png')).toBeGreaterThan(0);
    expect(await imported(fixture('novelai.lorebook'), 'application/octet-stream')).toBeGreaterThan(0);
  });

  it('refuses what is not a lorebook with a message naming the problem, and imports nothing', async () => {
    const owner = await registerUser(ctx.app);
    const stranger = await registerUser(ctx.app);
    const storyId = await newStory(owner.client);
    const refusals: Array<[Uint8Array, string, number]> = [
      [new TextEncoder().encode('{"entries": '), 'application/json', 400],
      [new TextEncoder().encode(JSON.stringify({ hello: 'world' })), 'application/json', 400],
      [
        new TextEncoder().encode(JSON.stringify({ entries: { 0: { key: 'not a list', content: 'x' } } })),
        'application/json',
        400,
      ],
      [new TextEncoder().encode('plain words'), 'text/plain', 415],
    ];
    for (const [body, type, status] of refusals) {
      const res = await importCards(owner.client, storyId, body, type);
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json().message.length).toBeGreaterThan(10);
    }
    expect(await cardsOf(owner.client, storyId)).toEqual([]);
    expect((await importCards(stranger.client, storyId, fixture('sillytavern-modern.json'))).statusCode).toBe(404);
    expect(await cardsOf(owner.client, storyId)).toEqual([]);
  });
});

describe('cards that travel', () => {
  it('exports as SillyTavern and imports back unchanged, in a story file (version 3) and in a branch', async () => {
    const { client, id } = await registerUser(ctx.app);
    const storyId = await newStory(client);
    await client.post(`/api/story/${storyId}/cards`, {
      name: 'Ferryman',
      keys: ['ferryman', '/\\bCharon\\b/i'],
      secondaryKeys: ['coin'],
      secondaryLogic: 'notAny',
      content: 'The ferryman takes no coin, only a true name.',
      priority: 7,
      sticky: 2,
      cooldown: 1,
      delay: 3,
      scanDepth: 6,
      caseSensitive: true,
      wholeWords: false,
      recursive: true,
    });
    await client.post(`/api/story/${storyId}/cards`, {
      name: 'Marsh',
      alwaysOn: true,
      content: 'The marsh rises at dusk.',
    });
    const original = (await cardsOf(client, storyId)).map(fields);

    const exported = await client.get(`/api/story/${storyId}/cards/export?format=sillytavern`);
    expect(exported.statusCode).toBe(200);
    expect(exported.headers['content-disposition']).toMatch(/^attachment; filename=".+\.sillytavern\.json"$/);
    const other = await newStory(client);
    const back = await importCards(client, other, new Uint8Array(exported.rawPayload));
    expect(back.statusCode, back.body).toBe(201);
    expect(back.json().ignored).toEqual([]);
    expect((await cardsOf(client, other)).map(fields)).toEqual(original);
    expect((await client.get(`/api/story/${storyId}/cards/export?format=yaml`)).statusCode).toBe(400);

    const file = await client.get(`/api/story/${storyId}/export?format=json`);
    expect(file.json()).toMatchObject({ version: 4, cards: original });
    const restored = await client.request({
      method: 'POST',
      url: '/api/story/import',
      payload: file.body,
      headers: { 'content-type': 'application/json' },
    });
    expect(restored.statusCode, restored.body).toBe(201);
    expect((await cardsOf(client, restored.json().storyId)).map(fields)).toEqual(original);

    const opening = (await client.get(`/api/story/${storyId}/current-state`)).json().messages[1].messageId;
    const branch = await client.post(`/api/story/${storyId}/branch`, { messageId: opening });
    expect(branch.statusCode, branch.body).toBe(201);
    expect((await cardsOf(client, branch.json().storyId)).map(fields)).toEqual(original);

    const counters = await quotaCounters(ctx.database, id);
    expect(counters.counted).toEqual(counters.actual);
    // Deleting a story takes its cards' bytes with it.
    await client.request({ method: 'DELETE', url: `/api/story/${other}`, json: {} });
    const after = await quotaCounters(ctx.database, id);
    expect(after.counted).toEqual(after.actual);
  });

  it('refuses a story file whose card has a key that cannot run', async () => {
    const { client } = await registerUser(ctx.app);
    const storyId = await newStory(client);
    const file = (await client.get(`/api/story/${storyId}/export?format=json`)).json();
    const bad = { ...file, cards: [{ name: 'Echo', keys: ['/(a)\\1/'], content: 'An echo.' }] };
    const res = await client.request({
      method: 'POST',
      url: '/api/story/import',
      payload: JSON.stringify(bad),
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain("card 'Echo'");
    const neverSent = { ...file, cards: [{ name: 'Echo', content: 'An echo.' }] };
    const refused = await client.request({
      method: 'POST',
      url: '/api/story/import',
      payload: JSON.stringify(neverSent),
      headers: { 'content-type': 'application/json' },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toContain(STORY_CARD_MESSAGES.neverSent);
  });
});
