// Story cards and the prompt's budget, read from what the OpenAI-compatible fake received, in a
// small window (4,096 tokens): the cards keep to their share however many are always on, the
// prompt never passes the window, the last two turn pairs and the action stay verbatim, a card that
// does not fit is cut at a sentence or left out (and the record says which), and a recursive card's
// content brings in the cards it names, one level.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { computeBudget, countPrompt } from '@server/ai/llm/context';
import { loadTokenCounter } from '@server/ai/llm/tokenizer';
import { contentText, startFakeLlmServer, type FakeLlmServer } from '@server/test/fake-llm-server';
import { createTestApp, registerUser, type TestClient, type TestContext, fakeLlmConfig } from '@server/test/test-app';
import type { NarratorContext } from '@shared/schemas/story-cards';
import { proseWriter } from '@server/test/varied-prose';

let ctx: TestContext;
let fake: FakeLlmServer;
let replies = 0;
const WINDOW = { LLM_CONTEXT_TOKENS: '4096', LLM_MAX_OUTPUT_TOKENS: '500' };

beforeAll(async () => {
  fake = await startFakeLlmServer({ apiKey: 'sk-small' });
  // Varied prose of a real reply's length, as a model writes it (the loop guard lets it pass).
  const writer = proseWriter(3);
  fake.fallback = () => ({ kind: 'ok', text: `${writer.reply(6)} Reply ${(replies += 1)}. What now?` });
  const llm = fakeLlmConfig(fake, 'sk-small', {
    ...WINDOW,
  });
  ctx = await createTestApp({ llm });
});
afterAll(async () => {
  await ctx.close();
  await fake.close();
});

async function play(client: TestClient, storyId: number, message: string) {
  const res = await client.post(`/api/story/${storyId}/continue`, { message });
  expect(res.statusCode, res.body).toBe(200);
  const body = fake.requests.at(-1)!.body;
  const [system, ...messages] = body.messages.map((m) => ({
    role: m.role as 'user' | 'assistant',
    content: contentText(m.content),
  }));
  const record = (
    await client.get(`/api/story/${storyId}/messages/${res.json().messageId}/context`)
  ).json() as NarratorContext;
  return { system: system.content, messages, record };
}

it('keeps the cards to their share and the prompt inside the window, the last turns and the action verbatim', async () => {
  const { client } = await registerUser(ctx.app);
  const storyId = (await client.post('/api/story/start', { prompt: 'A smuggler sails the Saltmere at night' })).json()
    .storyId;
  const lore = (n: number) =>
    Array.from({ length: 12 }, (_, i) => `Fact ${n}.${i}: the harbour of Saltmere keeps secret number ${i}.`).join(' ');
  for (let n = 1; n <= 12; n += 1)
    await client.post(`/api/story/${storyId}/cards`, {
      name: `Harbour lore ${n}`,
      alwaysOn: true,
      priority: n,
      content: lore(n),
    });
  for (const action of ['I trim the sails', 'I check the hold', 'I light a lantern'])
    await play(client, storyId, action);
  const { system, messages, record } = await play(client, storyId, 'I steer towards the harbour lights');

  const count = await loadTokenCounter();
  const budget = computeBudget(4096, 500);
  expect(countPrompt(system, messages, count)).toBeLessThanOrEqual(budget.prompt);
  expect(record.windowTokens).toBe(budget.prompt);
  expect(record.cardBudgetTokens).toBe(Math.floor(budget.prompt * 0.25));
  const cards = record.blocks.filter((b) => b.kind === 'card');
  const sent = cards.filter((b) => b.included !== 'dropped');
  expect(sent.reduce((sum, b) => sum + b.tokens, 0)).toBeLessThanOrEqual(record.cardBudgetTokens);
  // Higher priority first; what did not fit is cut at a sentence or left out, and says so.
  expect(sent[0].title).toBe('Harbour lore 12');
  const partial = cards.filter((b) => b.included === 'partial');
  expect(partial.length).toBeLessThanOrEqual(1);
  for (const b of partial) expect(b.reason).toMatch(/^always on; trimmed to fit: \d+ of \d+ tokens$/);
  const dropped = cards.filter((b) => b.included === 'dropped');
  expect(dropped.length).toBeGreaterThan(0);
  expect(dropped[0].reason).toMatch(/^no room: priority \d+ of 12$/);
  const firstUser = messages[0].content;
  for (const b of partial) {
    const text = firstUser.slice(firstUser.indexOf(`Story card: ${b.title}\n`)).split('\n\n')[0];
    expect(text).toMatch(/secret number \d+\.$/);
  }
  // The last two turn pairs and the action, verbatim; the action last.
  const texts = messages.map((m) => m.content);
  expect(texts.at(-1)).toBe('I steer towards the harbour lights');
  for (const action of ['I check the hold', 'I light a lantern']) expect(texts).toContain(action);
  expect(record.blocks.filter((b) => b.kind === 'turn' && b.included === 'full').length).toBeGreaterThanOrEqual(4);
});

it('follows a recursive card into the cards its content names, one level deep', async () => {
  const { client } = await registerUser(ctx.app);
  const storyId = (await client.post('/api/story/start', { prompt: 'A keeper tends a lighthouse' })).json().storyId;
  const add = (card: Record<string, unknown>) => client.post(`/api/story/${storyId}/cards`, card);
  await add({
    name: 'Keeper',
    keys: ['keeper'],
    content: 'The keeper owes money to the Widow Marsh.',
    recursive: true,
  });
  await add({
    name: 'Widow Marsh',
    keys: ['Widow Marsh'],
    content: 'The Widow Marsh keeps a ledger of debts.',
    recursive: true,
  });
  await add({ name: 'Ledger', keys: ['ledger'], content: 'The ledger is written in a cipher.' });

  const { messages, record } = await play(client, storyId, 'I ask the keeper about the storm');
  const last = messages.at(-1)!.content;
  expect(last).toContain('Story card: Keeper');
  expect(last).toContain('Story card: Widow Marsh');
  // One level: the widow's content names the ledger, but a card brought in by another is not followed.
  expect(last).not.toContain('Story card: Ledger');
  expect(record.blocks.find((b) => b.title === 'Widow Marsh')?.reason).toBe("named in card 'Keeper'");
});
