// Story cards through the API and the real narrator with the OpenAI-compatible fake: the owner's
// cards are listed, added, edited, switched off and deleted (another player's story is 404), and a
// card reaches the model only when it should: always-on cards in the stable head, a card whose key
// came up next to the action, never one that is disabled. The context record says what was sent
// and why. Assertions are on what the fake provider received.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeBudget } from '@server/ai/llm/context';
import { contentText, startFakeLlmServer, type FakeLlmServer } from '@server/test/fake-llm-server';
import { createTestApp, registerUser, type TestClient, type TestContext, fakeLlmConfig } from '@server/test/test-app';
import { STORY_CARD_MESSAGES, type NarratorContext } from '@shared/schemas/story-cards';

let ctx: TestContext;
let fake: FakeLlmServer;
const REPLIES = [
  'Rain drums on the stable roof while the lantern swings.',
  'The road bends past a mill whose wheel has stopped turning.',
  'A crow watches from the fence post, head tilted, silent.',
  'Smoke rises from a chimney beyond the hedge, thin and grey.',
];
let replies = 0;

beforeAll(async () => {
  fake = await startFakeLlmServer({ apiKey: 'sk-test' });
  fake.fallback = () => ({ kind: 'ok', text: `${REPLIES[replies++ % REPLIES.length]} What do you do?` });
  const llm = fakeLlmConfig(fake, 'sk-test');
  ctx = await createTestApp({ llm, storyMaxCards: 5 });
});
afterAll(async () => {
  await ctx.close();
  await fake.close();
});

const BESSIE = {
  name: 'Bessie',
  keys: ['Bessie', 'the mare'],
  content: 'Bessie is your grey mare, afraid of thunder.',
};

async function newStory(client: TestClient, premise = 'A courier rides north through the rain') {
  const res = await client.post('/api/story/start', { prompt: premise });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { storyId: number; messageId: number };
}

const addCard = (client: TestClient, storyId: number, card: Record<string, unknown>) =>
  client.post(`/api/story/${storyId}/cards`, card);

async function turn(client: TestClient, storyId: number, message: string) {
  const res = await client.post(`/api/story/${storyId}/continue`, { message });
  expect(res.statusCode, res.body).toBe(200);
  const last = fake.requests.at(-1)!.body.messages.map((m) => ({ role: m.role, text: contentText(m.content) }));
  return { reply: res.json() as { messageId: number }, sent: last };
}

const contextOf = async (client: TestClient, storyId: number, messageId: number, query = '') =>
  (await client.get(`/api/story/${storyId}/messages/${messageId}/context${query}`)).json() as NarratorContext;

describe('the story cards panel', () => {
  it('lists, adds, edits, switches off and deletes the owner\u2019s cards, with clear 400s', async () => {
    const { client } = await registerUser(ctx.app);
    const { storyId } = await newStory(client);
    expect((await client.get(`/api/story/${storyId}/cards`)).json()).toEqual({ cards: [] });

    const created = await addCard(client, storyId, BESSIE);
    expect(created.statusCode).toBe(201);
    const card = created.json().card;
    expect(card).toMatchObject({
      ...BESSIE,
      secondaryKeys: [],
      secondaryLogic: 'andAny',
      alwaysOn: false,
      enabled: true,
      priority: 0,
      caseSensitive: false,
      wholeWords: true,
      scanDepth: 4,
      recursive: false,
      sticky: 0,
      cooldown: 0,
      delay: 0,
    });
    expect(card.id).toBeGreaterThan(0);
    expect(card.tokens).toBeGreaterThan(5);

    const patched = await client.request({
      method: 'PATCH',
      url: `/api/story/${storyId}/cards/${card.id}`,
      json: { enabled: false, priority: 3 },
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json().card).toMatchObject({ ...BESSIE, enabled: false, priority: 3 });
    expect((await client.get(`/api/story/${storyId}/cards`)).json().cards).toEqual([patched.json().card]);

    // The merged card is checked again: no keys and not always on would never be sent.
    const emptied = await client.request({
      method: 'PATCH',
      url: `/api/story/${storyId}/cards/${card.id}`,
      json: { keys: [] },
    });
    expect(emptied.statusCode).toBe(400);
    expect(emptied.json().message).toBe(STORY_CARD_MESSAGES.neverSent);
    const unknownField = await client.request({
      method: 'PATCH',
      url: `/api/story/${storyId}/cards/${card.id}`,
      json: { colour: 'red' },
    });
    expect(unknownField.statusCode).toBe(400);

    const neither = await addCard(client, storyId, { name: 'Lore', content: 'Some lore.' });
    expect(neither.statusCode).toBe(400);
    expect(neither.json().message).toBe(STORY_CARD_MESSAGES.neverSent);
    const badRegex = await addCard(client, storyId, { ...BESSIE, keys: ['/(a)\\1/'] });
    expect(badRegex.statusCode).toBe(400);
    expect(badRegex.json().message).toContain("The key '/(a)\\1/' is not a regular expression Taleweaver can run");
    const tooLong = await addCard(client, storyId, { ...BESSIE, content: 'x'.repeat(8001) });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().message).toContain(STORY_CARD_MESSAGES.contentTooLong);
    expect((await client.get(`/api/story/${storyId}/cards/abc`)).statusCode).toBe(404);
    const badId = await client.request({ method: 'DELETE', url: `/api/story/${storyId}/cards/abc`, json: {} });
    expect(badId.statusCode).toBe(400);

    const deleted = await client.request({ method: 'DELETE', url: `/api/story/${storyId}/cards/${card.id}`, json: {} });
    expect(deleted.json()).toEqual({ success: true });
    const again = await client.request({ method: 'DELETE', url: `/api/story/${storyId}/cards/${card.id}`, json: {} });
    expect(again.statusCode).toBe(404);
    expect(again.json().message).toBe(STORY_CARD_MESSAGES.cardNotFound);
    expect((await client.get(`/api/story/${storyId}/cards`)).json()).toEqual({ cards: [] });
  });

  it('answers 404 for another player\u2019s story and 401 for a visitor; a story holds at most STORY_MAX_CARDS', async () => {
    const owner = await registerUser(ctx.app);
    const stranger = await registerUser(ctx.app);
    const { storyId } = await newStory(owner.client);
    const card = (await addCard(owner.client, storyId, BESSIE)).json().card;
    const theirs = [
      await stranger.client.get(`/api/story/${storyId}/cards`),
      await addCard(stranger.client, storyId, BESSIE),
      await stranger.client.request({
        method: 'PATCH',
        url: `/api/story/${storyId}/cards/${card.id}`,
        json: { enabled: false },
      }),
      await stranger.client.request({ method: 'DELETE', url: `/api/story/${storyId}/cards/${card.id}`, json: {} }),
      await stranger.client.get(`/api/story/${storyId}/cards/export`),
    ];
    expect(theirs.map((r) => r.statusCode)).toEqual([404, 404, 404, 404, 404]);
    const visitor = new (owner.client.constructor as new (app: unknown) => TestClient)(ctx.app);
    expect((await visitor.get(`/api/story/${storyId}/cards`)).statusCode).toBe(401);
    expect((await owner.client.get(`/api/story/${storyId}/cards`)).json().cards[0].enabled).toBe(true);

    for (let i = 2; i <= 5; i += 1) expect((await addCard(owner.client, storyId, BESSIE)).statusCode).toBe(201);
    const sixth = await addCard(owner.client, storyId, BESSIE);
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json().message).toBe(STORY_CARD_MESSAGES.tooManyCards(5));
  });
});

describe('regular-expression keys', () => {
  it('are limited per story, counted before any is compiled, in the panel and in an import', async () => {
    const { client } = await registerUser(ctx.app);
    const { storyId } = await newStory(client);
    const regexCard = (n: number, count: number) => ({
      name: `Pattern ${n}`,
      keys: Array.from({ length: count }, (_, i) => `/rune ${n}-${i}s?/i`),
      content: `Rune ${n} glows.`,
    });
    expect((await addCard(client, storyId, regexCard(1, 15))).statusCode).toBe(201);
    const over = await addCard(client, storyId, regexCard(2, 6));
    expect(over.statusCode).toBe(400);
    expect(over.json().message).toBe(STORY_CARD_MESSAGES.tooManyRegexKeys);
    expect((await addCard(client, storyId, regexCard(3, 5))).statusCode).toBe(201);

    const other = (await newStory(client)).storyId;
    const file = {
      format: 'taleweaver.cards',
      version: 1,
      cards: [regexCard(4, 20), regexCard(5, 1), { name: 'Plain', keys: ['lantern'], content: 'A lantern.' }],
    };
    const res = await client.request({
      method: 'POST',
      url: `/api/story/${other}/cards/import`,
      payload: JSON.stringify(file),
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().cards.map((c: { name: string }) => c.name)).toEqual(['Pattern 4', 'Plain']);
    expect(res.json().ignored).toEqual([{ entry: 'Pattern 5', reason: STORY_CARD_MESSAGES.tooManyRegexKeys }]);
  });
});

describe('what the narrator is sent', () => {
  it('sends always-on cards in the head and a keyed card next to the action, and the record says why', async () => {
    const { client } = await registerUser(ctx.app);
    const { storyId } = await newStory(client);
    await addCard(client, storyId, { name: 'The North', alwaysOn: true, content: 'The north road is flooded.' });
    const bessie = (await addCard(client, storyId, BESSIE)).json().card;
    await addCard(client, storyId, { name: 'Ash', keys: ['Ash'], content: 'Ash is the innkeeper.', scanDepth: 0 });

    const { reply, sent } = await turn(client, storyId, 'I wash my hands and saddle Bessie');
    const [system, head, ...rest] = sent;
    expect(system.role).toBe('system');
    expect(head.text).toMatch(/^Story premise[\s\S]*Story card: The North\nThe north road is flooded\./);
    const last = rest.at(-1)!;
    expect(last.role).toBe('user');
    expect(last.text).toBe(
      'Story card: Bessie\nBessie is your grey mare, afraid of thunder.\n\nI wash my hands and saddle Bessie',
    );
    // "Ash" is a whole word: it does not fire on "wash".
    expect(sent.some((m) => m.text.includes('Ash is the innkeeper'))).toBe(false);
    expect(sent.filter((m) => m.role === 'system')).toHaveLength(1);

    const record = await contextOf(client, storyId, reply.messageId);
    expect(record.blocks.map((b) => [b.kind, b.title, b.included])).toEqual([
      ['system', "The narrator's rules and your preferences", 'full'],
      ['premise', 'Premise', 'full'],
      ['card', 'The North', 'full'],
      ['turn', 'The opening', 'full'],
      ['card', 'Bessie', 'full'],
      ['action', 'Your action', 'full'],
    ]);
    expect(record.blocks.find((b) => b.title === 'The North')?.reason).toBe('always on');
    expect(record.blocks.find((b) => b.title === 'Bessie')).toMatchObject({
      reason: "key 'Bessie' in your action",
      cardId: bessie.id,
    });
    const budget = computeBudget(8192, 500);
    expect(record.windowTokens).toBe(budget.prompt);
    expect(record.cardBudgetTokens).toBe(Math.floor(budget.prompt * 0.25));
    // The blocks' tokens are the texts'; the prompt adds each message's few tokens of overhead.
    const blockTokens = record.blocks.reduce((sum, b) => sum + b.tokens, 0);
    expect(record.promptTokens).toBeGreaterThanOrEqual(blockTokens);
    expect(record.promptTokens).toBeLessThan(blockTokens + 40);
    expect(record.outputTokens).toBeGreaterThan(0);

    // The key is still within the card's scan depth on the next turn.
    const next = await turn(client, storyId, 'I ride on');
    expect(next.sent.at(-1)!.text).toContain('Story card: Bessie');
    expect(
      (await contextOf(client, storyId, next.reply.messageId)).blocks.find((b) => b.title === 'Bessie')?.reason,
    ).toBe("key 'Bessie' 2 messages back");

    // Switched off, it is listed as not sent, and the model never sees it.
    await client.request({
      method: 'PATCH',
      url: `/api/story/${storyId}/cards/${bessie.id}`,
      json: { enabled: false },
    });
    const off = await turn(client, storyId, 'I pat Bessie');
    expect(off.sent.some((m) => m.text.includes('grey mare'))).toBe(false);
    expect(
      (await contextOf(client, storyId, off.reply.messageId)).blocks.find((b) => b.title === 'Bessie'),
    ).toMatchObject({
      included: 'dropped',
      reason: "disabled (key 'Bessie' in your action)",
    });
  });

  it('keeps a sticky card on for its turns, derived from the shown replies, so undo leaves it right', async () => {
    const { client } = await registerUser(ctx.app);
    const { storyId } = await newStory(client);
    await addCard(client, storyId, { ...BESSIE, sticky: 2, scanDepth: 0 });
    const has = (sent: Array<{ text: string }>) => sent.some((m) => m.text.includes('grey mare'));
    expect(has((await turn(client, storyId, 'I whistle for Bessie')).sent)).toBe(true);
    const second = await turn(client, storyId, 'I ride on');
    expect(has(second.sent)).toBe(true);
    expect(
      (await contextOf(client, storyId, second.reply.messageId)).blocks.find((b) => b.kind === 'card')?.reason,
    ).toBe('sticky 1 of 2');
    expect(has((await turn(client, storyId, 'I ride further')).sent)).toBe(true);
    expect(has((await turn(client, storyId, 'I stop at the ford')).sent)).toBe(false);

    // Undo back to before the whistle: the card's history goes with the turns.
    for (let i = 0; i < 4; i += 1) expect((await client.post(`/api/story/${storyId}/undo`)).statusCode).toBe(200);
    expect(has((await turn(client, storyId, 'I ride on alone')).sent)).toBe(false);
  });

  it('keeps a record for each version of a reply, and answers 404 where there is none', async () => {
    const owner = await registerUser(ctx.app);
    const stranger = await registerUser(ctx.app);
    const { storyId } = await newStory(owner.client);
    const { reply } = await turn(owner.client, storyId, 'I look for shelter');
    await owner.client.post(`/api/story/${storyId}/retry`);
    const versions = [1, 2].map((v) => contextOf(owner.client, storyId, reply.messageId, `?version=${v}`));
    for (const record of await Promise.all(versions)) expect(record.blocks.at(-1)?.kind).toBe('action');
    const get = (client: TestClient, messageId: number, query = '') =>
      client.get(`/api/story/${storyId}/messages/${messageId}/context${query}`);
    expect((await get(owner.client, reply.messageId, '?version=3')).statusCode).toBe(404);
    expect((await get(owner.client, reply.messageId, '?version=0')).statusCode).toBe(400);
    expect((await get(owner.client, reply.messageId - 1)).statusCode).toBe(404); // the player's own action
    expect((await get(stranger.client, reply.messageId)).statusCode).toBe(404);

    await ctx.database.executeSql('delete from narrator_contexts where message_id = $1', [reply.messageId]);
    const older = await get(owner.client, reply.messageId);
    expect(older.statusCode).toBe(404);
    expect(older.json().message).toBe(STORY_CARD_MESSAGES.contextMissing);
  });
});
