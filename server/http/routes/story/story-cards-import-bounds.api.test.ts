// POST /api/story/{id}/cards/import costs what the file is, and only the import worker pays it: the
// file is never parsed nor checked on the server's own thread; a PNG's text chunks of other keywords
// are passed over unread; a file of more entries than twice the story's cards is refused before any
// is read; the answer lists the first 100 entries set aside and counts them all; and text holding
// U+0000, in any content type, JSON or PNG, is refused by name with nothing written (the card form's
// POST and PATCH refuse it too, at the app's JSON parser).
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { chunk, fixture, fixtureJson, png, pngCard } from '@server/domains/story/cards/formats/testing';
import { importCards, newStory } from '@server/test/card-imports';
import { createTestApp, registerUser, type TestClient, type TestContext } from '@server/test/test-app';
import { MESSAGES } from '@server/kernel/errors';
import { loadTokenCounter } from '@server/ai/llm/tokenizer';
import {
  IMPORT_IGNORED_LISTED_MAX,
  storyCardFieldsSchema,
  storyCardsImportResponseSchema,
  storyCardsResponseSchema,
  type StoryCard,
} from '@shared/schemas/story-cards';

const PREMISE = 'A lamplighter keeps the last lit street of Veyra';
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

const bytesOf = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));
const cardsOf = async (client: TestClient, storyId: number) =>
  (await client.get(`/api/story/${storyId}/cards`)).json().cards as StoryCard[];

describe('POST /api/story/{id}/cards/import, read in the import worker', () => {
  it('never parses nor checks the file on the server\u2019s own thread, JSON or PNG', async () => {
    const { client } = await registerUser(ctx.app);
    const storyId = await newStory(client, PREMISE);
    const lorebook = fixture('sillytavern-modern.json');
    const card = fixtureJson('chara-card-v2.json');
    const texts = new Set([Buffer.from(lorebook).toString('utf8'), JSON.stringify(card)]);
    const parse = vi.spyOn(JSON, 'parse');
    const check = vi.spyOn(storyCardFieldsSchema, 'safeParse');
    try {
      expect((await importCards(client, storyId, lorebook)).statusCode).toBe(201);
      expect((await importCards(client, storyId, pngCard(card), 'image/png')).statusCode).toBe(201);
      expect(parse.mock.calls.filter(([input]) => texts.has(input))).toEqual([]);
      expect(check).not.toHaveBeenCalled();
    } finally {
      parse.mockRestore();
      check.mockRestore();
    }
  });

  it('stores each card with its content’s tokens as counted in the worker, in the file’s order', async () => {
    const { client } = await registerUser(ctx.app);
    const storyId = await newStory(client, PREMISE);
    // More cards than one statement writes, of different lengths, so a token shifted by one shows.
    const entries = Array.from({ length: 230 }, (_, i) => ({
      key: [`k${i}`],
      content: `${'The lamp burns low. '.repeat(1 + (i % 7))}Card ${i}.`,
    }));
    const res = await importCards(client, storyId, bytesOf({ entries }));
    expect(res.statusCode, res.body).toBe(201);
    const count = await loadTokenCounter();
    // Both answers are written as bytes a run of cards at a time: each is exactly what its schema says.
    const listed = await client.get(`/api/story/${storyId}/cards`);
    expect(listed.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(storyCardsResponseSchema.parse(listed.json())).toEqual(listed.json());
    expect(storyCardsImportResponseSchema.parse(res.json())).toEqual(res.json());
    expect(res.json()).toMatchObject({ imported: 230, ignored: [], ignoredCount: 0 });
    const stored = await cardsOf(client, storyId);
    expect(stored.map((card) => card.keys[0])).toEqual(entries.map((entry) => entry.key[0]));
    expect(stored.map((card) => card.tokens)).toEqual(entries.map((entry) => count(entry.content)));
    expect(res.json().cards.map((card: StoryCard) => card.id)).toEqual(stored.map((card) => card.id));
  });

  it('passes over a PNG text chunk of another keyword unread, which failed the file before', async () => {
    const { client } = await registerUser(ctx.app);
    const storyId = await newStory(client, PREMISE);
    // A zTXt chunk of keyword 'Comment' that no inflater takes (a deflate block of reserved type 3).
    const comment = chunk('zTXt', Buffer.from([...Buffer.from('Comment\0\0', 'latin1'), 0x78, 0x9c, 0xff, 0xff]));
    const text = Buffer.from(JSON.stringify(fixtureJson('chara-card-v2.json'))).toString('base64');
    const chara = chunk('tEXt', Buffer.from(`chara\0${text}`, 'latin1'));
    const res = await importCards(client, storyId, png(comment, chara), 'image/png');
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().imported).toBe(3);
  });

  it('refuses a file of more entries than twice the cards a story may hold, before reading them', async () => {
    const { client } = await registerUser(ctx.app);
    const storyId = await newStory(client, PREMISE);
    // The test server's stories hold 1,000 cards (STORY_MAX_CARDS' default).
    const entries = Array.from({ length: 2001 }, (_, i) => ({ key: [`k${i}`], content: 'Lore.' }));
    const res = await importCards(client, storyId, bytesOf({ entries }));
    expect([res.statusCode, res.json()]).toEqual([
      400,
      {
        code: 'VALIDATION_ERROR',
        message:
          'This file has 2,001 entries: Taleweaver reads at most 2,000 from one file, twice the 1,000 cards a story may hold. Split it into smaller files.',
      },
    ]);
    expect(await cardsOf(client, storyId)).toEqual([]);
  });

  it('lists the first 100 entries set aside, in the file\u2019s order, and counts them all', async () => {
    const { client } = await registerUser(ctx.app);
    const storyId = await newStory(client, PREMISE);
    const empty = Array.from({ length: 150 }, (_, i) => ({ comment: `Empty ${i}`, key: [`k${i}`], content: '' }));
    const res = await importCards(
      client,
      storyId,
      bytesOf({ entries: [{ key: ['lamp'], content: 'Lore.' }, ...empty] }),
    );
    expect(res.statusCode, res.body).toBe(201);
    const answer = storyCardsImportResponseSchema.parse(res.json());
    expect(answer.imported).toBe(1);
    expect(answer.ignoredCount).toBe(150);
    expect(answer.ignored).toHaveLength(IMPORT_IGNORED_LISTED_MAX);
    expect(answer.ignored.map((line) => line.entry)).toEqual(Array.from({ length: 100 }, (_, i) => `Empty ${i}`));
    const none = await importCards(client, storyId, bytesOf({ entries: [{ key: ['oil'], content: 'Lore.' }] }));
    expect(none.json()).toMatchObject({ ignored: [], ignoredCount: 0 });
  });
});

describe('U+0000 in a story card', () => {
  const NUL_AT = (where: string) =>
    `This file holds the NUL character (U+0000) at ${where}, which Taleweaver cannot store. Remove it and try again.`;

  it('is refused in a file of any content type, JSON or PNG, where it was a 500, and nothing is written', async () => {
    const { client } = await registerUser(ctx.app);
    const storyId = await newStory(client, PREMISE);
    const lorebook = { entries: { 0: { key: ['lamp'], content: 'Lore.' }, 1: { key: ['wick'], content: 'Wi\0ck.' } } };
    const novelai = { lorebookVersion: 5, entries: [{ displayName: 'Oil\0', keys: ['oil'], text: 'Lore.' }] };
    const card = fixtureJson('chara-card-v3.json');
    const withNul = {
      ...card,
      data: { ...(card.data as object), character_book: { entries: [{ keys: ['\0'], content: 'x' }] } },
    };
    const refusals: Array<[Uint8Array, string, string]> = [
      [bytesOf(lorebook), 'application/json', 'entries.1.content'],
      [bytesOf(lorebook), 'application/octet-stream', 'entries.1.content'],
      [bytesOf(novelai), 'application/octet-stream', 'entries.0.displayName'],
      [pngCard(withNul, 'ccv3'), 'image/png', 'data.character_book.entries.0.keys.0'],
      [pngCard(withNul, 'ccv3'), 'application/octet-stream', 'data.character_book.entries.0.keys.0'],
    ];
    for (const [body, type, where] of refusals) {
      const res = await importCards(client, storyId, body, type);
      expect([res.statusCode, res.json()]).toEqual([400, { code: 'VALIDATION_ERROR', message: NUL_AT(where) }]);
    }
    expect(await cardsOf(client, storyId)).toEqual([]);
  });

  it('is refused by the card form, added or edited, at the app\u2019s JSON parser', async () => {
    const { client } = await registerUser(ctx.app);
    const storyId = await newStory(client, PREMISE);
    const added = await client.post(`/api/story/${storyId}/cards`, {
      name: 'Lamp\0',
      keys: ['lamp'],
      content: 'Lore.',
    });
    expect([added.statusCode, added.json().message]).toEqual([400, MESSAGES.nulText]);
    const kept = await client.post(`/api/story/${storyId}/cards`, { name: 'Lamp', keys: ['lamp'], content: 'Lore.' });
    expect(kept.statusCode, kept.body).toBe(201);
    const cardId = kept.json().card.id as number;
    const edited = await client.request({
      method: 'PATCH',
      url: `/api/story/${storyId}/cards/${cardId}`,
      json: { keys: ['lamp', 'wi\0ck'] },
    });
    expect([edited.statusCode, edited.json().message]).toEqual([400, MESSAGES.nulText]);
    expect((await cardsOf(client, storyId)).map((c) => c.keys)).toEqual([['lamp']]);
  });
});
