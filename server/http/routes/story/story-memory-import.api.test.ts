// An imported story far ahead of its memory: 200 turns (about 600 KB) with nothing folded, played
// on with LLM_CONTEXT_TOKENS=4096 against a fake OpenAI-compatible server. Judged by what the model
// was sent: every request fits the context (counted with the real tokenizer), and the memory
// catches up piece by piece over the following turns, each piece starting where the last ended.
// Once the summary of every unfolded turn went out in one request of about 400,000 tokens.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { computeBudget, countPrompt } from '@server/ai/llm/context';
import { loadTokenCounter } from '@server/ai/llm/tokenizer';
import { contentText, startFakeLlmServer, type FakeLlmServer } from '@server/test/fake-llm-server';
import { createTestApp, registerUser, type TestContext, fakeLlmConfig } from '@server/test/test-app';
import { proseWriter } from '@server/test/varied-prose';

const CONTEXT_TOKENS = 4096;
const TURNS = 200;
const PREMISE = 'A courier crosses the Salt Wastes with a letter she must never open.';
/** Imported messages are numbered [m1] (the opening) to [m399] (the last reply); the premise is m0. */
const LAST_MARKER = 2 * TURNS - 1;
const MAX_TURNS = 150;

const action = (n: number) => `[m${n}] I keep walking east along the dunes, counting the cairns. `.repeat(20);
const reply = (n: number) =>
  `[m${n}] The wind drags salt across the road and the cairns lean like tired men. `.repeat(19);

function importedStory(): string {
  const at = new Date().toISOString();
  const messages = [{ role: 'user', content: PREMISE, turn: 0, isInitial: true, createdAt: at }];
  messages.push({ role: 'assistant', content: reply(1), turn: 0, isInitial: false, createdAt: at });
  for (let turn = 1; turn < TURNS; turn += 1) {
    messages.push({ role: 'user', content: action(2 * turn), turn, isInitial: false, createdAt: at });
    messages.push({ role: 'assistant', content: reply(2 * turn + 1), turn, isInitial: false, createdAt: at });
  }
  const story = { title: 'The Salt Wastes', premise: PREMISE, memory: '', memoryCovers: 0, notes: '', createdAt: at };
  return JSON.stringify({ format: 'taleweaver.story', version: 2, exportedAt: at, story, messages });
}

const isSummary = (system: string) => system.startsWith('You maintain the memory');
/** A compaction merges the memory's oldest chunks: a summary request that folds no turns. */
const isCompaction = (system: string) => isSummary(system) && system.includes('Merge the parts');
/** The imported messages a summary request's transcript holds, in the order sent. */
const markersSent = (prompt: string) =>
  [
    ...(prompt.split('New turns:\n')[1] ?? '')
      .split('\n\nWrite the next part of the memory')[0]
      .matchAll(/^(?:Player|Narrator) \(turn \d+\): \[m(\d+)\]/gm),
  ].map((m) => Number(m[1]));

let fake: FakeLlmServer;
let ctx: TestContext;
beforeAll(async () => {
  fake = await startFakeLlmServer({ apiKey: 'sk-import' });
  let summaries = 0;
  // Short replies of varied prose, as a model writes them (the loop guard lets them pass).
  const writer = proseWriter(42);
  fake.fallback = (request) => {
    if (isSummary(contentText(request.body.messages[0]?.content))) {
      summaries += 1;
      return {
        kind: 'ok',
        text: `You carried the sealed letter past ${summaries * 10} cairns of the Salt Wastes.`,
        usage: { input: 2000, output: 20 },
      };
    }
    return {
      kind: 'ok',
      text: writer.reply(1),
      usage: { input: 2000, output: 14 },
    };
  };
  const llm = fakeLlmConfig(fake, 'sk-import', {
    LLM_CONTEXT_TOKENS: String(CONTEXT_TOKENS),
    LLM_MAX_OUTPUT_TOKENS: '500',
  });
  ctx = await createTestApp({ llm });
});
afterAll(async () => {
  await ctx.close();
  await fake.close();
});

it('catches the memory up one fitting piece per turn, every request within the context', async () => {
  const { client } = await registerUser(ctx.app);
  const file = importedStory();
  expect(file.length).toBeGreaterThan(550_000);
  const imported = await client.request({
    method: 'POST',
    url: '/api/story/import',
    payload: file,
    headers: { 'content-type': 'application/json' },
  });
  expect(imported.statusCode).toBe(201);
  const storyId = imported.json().storyId as number;

  const summaryMarkers = () =>
    fake.requests
      .filter(
        (r) =>
          isSummary(contentText(r.body.messages[0]?.content)) &&
          !isCompaction(contentText(r.body.messages[0]?.content)),
      )
      .map((r) => markersSent(contentText(r.body.messages[1]?.content)));
  let played = 0;
  while (!summaryMarkers().flat().includes(LAST_MARKER) && played < MAX_TURNS) {
    const res = await client.post(`/api/story/${storyId}/continue`, { message: `I walk on (${played})` });
    expect(res.statusCode).toBe(200);
    await ctx.app.turns.idle();
    played += 1;
  }

  // Every request the model was sent fits its context, output included; turns fit their budget.
  const count = await loadTokenCounter();
  const budget = computeBudget(CONTEXT_TOKENS, 500);
  expect(fake.requests.length).toBeGreaterThan(played);
  for (const request of fake.requests) {
    const [system, ...messages] = request.body.messages.map((m) => ({
      role: m.role as 'user' | 'assistant',
      content: contentText(m.content),
    }));
    const prompt = countPrompt(system.content, messages, count);
    expect(prompt + (request.body.max_tokens ?? request.body.max_completion_tokens ?? 0)).toBeLessThanOrEqual(
      CONTEXT_TOKENS,
    );
    if (!isSummary(system.content)) {
      expect(prompt).toBeLessThanOrEqual(budget.prompt);
      expect(messages[0].content).toContain(PREMISE);
    }
  }

  // The memory caught up piece by piece: one fold a turn at most, each piece taking up where the
  // last ended, from the opening to the last imported reply, every imported message once.
  const pieces = summaryMarkers().filter((markers) => markers.length > 0);
  expect(played).toBeLessThan(MAX_TURNS);
  expect(summaryMarkers().length).toBeLessThanOrEqual(played);
  expect(pieces.length).toBeGreaterThan(10);
  expect(pieces.flat()).toEqual(Array.from({ length: LAST_MARKER }, (_, i) => i + 1));
  for (const piece of pieces.slice(0, -1)) expect(piece.at(-1)! % 2, 'a piece ends on a narrator reply').toBe(1);
  // And the turns are written from it: the last prompt holds the memory the summaries made.
  const lastTurn = fake.requests.filter((r) => !isSummary(contentText(r.body.messages[0]?.content))).at(-1)!;
  expect(contentText(lastTurn.body.messages[1].content)).toMatch(
    /Story memory[^]*You carried the sealed letter past \d+ cairns/,
  );
}, 120_000);
