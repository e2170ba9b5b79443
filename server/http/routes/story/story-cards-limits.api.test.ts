// A story's limits on its cards hold under requests at once: the regular-expression keys its cards
// hold between them are counted inside the write's transaction, with the story row locked, so a
// burst of PATCHes and POSTs that each add one cannot pass STORY_REGEX_KEYS_MAX; and a key whose
// compiled program is too large is refused by name.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, registerUser, type TestClient, type TestContext } from '@server/test/test-app';
import { STORY_CARD_MESSAGES, STORY_REGEX_KEYS_MAX, type StoryCard } from '@shared/schemas/story-cards';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

async function newStory(client: TestClient): Promise<number> {
  const res = await client.post('/api/story/start', { prompt: 'A scribe copies runes in a cold tower' });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().storyId;
}

const isRegex = (key: string) => /^\/.+\/[a-z]*$/.test(key);
const regexKeysOf = (cards: StoryCard[]) =>
  cards.reduce((sum, c) => sum + c.keys.filter(isRegex).length + c.secondaryKeys.filter(isRegex).length, 0);

it('keeps a story to STORY_REGEX_KEYS_MAX regular-expression keys under 40 PATCHes and POSTs at once', async () => {
  const { client } = await registerUser(ctx.app);
  const storyId = await newStory(client);
  const near = STORY_REGEX_KEYS_MAX - 2;
  const first = await client.post(`/api/story/${storyId}/cards`, {
    name: 'Runes',
    keys: Array.from({ length: near }, (_, i) => `/rune ${i}s?/i`),
    content: 'The runes glow.',
  });
  expect(first.statusCode, first.body).toBe(201);
  const plain: number[] = [];
  for (let i = 0; i < 20; i += 1) {
    const res = await client.post(`/api/story/${storyId}/cards`, {
      name: `Glyph ${i}`,
      keys: [`glyph${i}`],
      content: 'A glyph.',
    });
    plain.push(res.json().card.id);
  }

  // Each adds one regular-expression key: only two of them can be kept.
  const answers = await Promise.all([
    ...plain.map((cardId, i) =>
      client.request({
        method: 'PATCH',
        url: `/api/story/${storyId}/cards/${cardId}`,
        json: { keys: [`glyph${i}`, `/glyph ${i}s?/i`] },
      }),
    ),
    ...Array.from({ length: 20 }, (_, i) =>
      client.post(`/api/story/${storyId}/cards`, {
        name: `Sigil ${i}`,
        keys: [`/sigil ${i}s?/i`],
        content: 'A sigil.',
      }),
    ),
  ]);
  const kept = answers.filter((res) => res.statusCode === 200 || res.statusCode === 201);
  const refused = answers.filter((res) => res.statusCode === 400);
  expect(kept).toHaveLength(STORY_REGEX_KEYS_MAX - near);
  expect(refused).toHaveLength(answers.length - kept.length);
  for (const res of refused) expect(res.json().message).toBe(STORY_CARD_MESSAGES.tooManyRegexKeys);

  const cards = (await client.get(`/api/story/${storyId}/cards`)).json().cards as StoryCard[];
  expect(regexKeysOf(cards)).toBe(STORY_REGEX_KEYS_MAX);
  // Refused writes left nothing: 21 cards and the POSTs kept, the PATCHed cards as they were or as kept.
  expect(cards).toHaveLength(21 + kept.filter((res) => res.statusCode === 201).length);

  // A PATCH that adds none still passes; one that adds one more does not.
  const unchanged = await client.request({
    method: 'PATCH',
    url: `/api/story/${storyId}/cards/${first.json().card.id}`,
    json: { priority: 2 },
  });
  expect(unchanged.statusCode).toBe(200);
  const more = await client.request({
    method: 'PATCH',
    url: `/api/story/${storyId}/cards/${plain[19]}`,
    json: { secondaryKeys: ['/ink/'] },
  });
  expect([more.statusCode, more.json().message]).toEqual([400, STORY_CARD_MESSAGES.tooManyRegexKeys]);
});

it('refuses a key whose compiled program is too large, naming it, and keeps the card as it was', async () => {
  const { client } = await registerUser(ctx.app);
  const storyId = await newStory(client);
  const big = await client.post(`/api/story/${storyId}/cards`, {
    name: 'Wall',
    keys: ['/.{1000}/'],
    content: 'A wall.',
  });
  expect(big.statusCode).toBe(400);
  expect(big.json().message).toBe(STORY_CARD_MESSAGES.regexKeyTooLarge('/.{1000}/', 1002));
  const card = (
    await client.post(`/api/story/${storyId}/cards`, { name: 'Wall', keys: ['wall'], content: 'A wall.' })
  ).json().card as StoryCard;
  const patched = await client.request({
    method: 'PATCH',
    url: `/api/story/${storyId}/cards/${card.id}`,
    json: { secondaryKeys: ['/(stone|brick){200}/'] },
  });
  expect(patched.statusCode).toBe(400);
  expect(patched.json().message).toMatch(/^The key '\/\(stone\|brick\)\{200\}\/' is too large a regular expression/);
  expect((await client.get(`/api/story/${storyId}/cards`)).json().cards).toEqual([card]);
});
