// Long stories: over 150 turns the prompt never exceeds its budget, the premise is always there,
// a name the player gave on turn 2 survives through the folded memory, and the per-turn prompt
// stays flat. Run with the builtin narrator and with a fake OpenAI-compatible server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBuiltinNarrator } from '@server/ai/llm/builtin';
import { computeBudget, countPrompt } from '@server/ai/llm/context';
import { loadTokenCounter } from '@server/ai/llm/tokenizer';
import type { GenerationRequest, NarratorProvider } from '@server/ai/llm/types';
import { loadConfig } from '@server/kernel/config';
import { createRepositories } from '@server/db/repositories';
import { contentText, startFakeLlmServer, type FakeLlmServer } from '@server/test/fake-llm-server';
import { createTestApp, registerUser, type TestContext, fakeLlmConfig } from '@server/test/test-app';
import { proseWriter } from '@server/test/varied-prose';

const TURNS = 150;
const SMALL_WINDOW = { LLM_CONTEXT_TOKENS: '4096', LLM_MAX_OUTPUT_TOKENS: '500' };
const PREMISE = 'Lady Oriane Vex, heir of House Vex, must reach the Glass Citadel before the winter solstice.';
const ACTIONS = [
  'I look around',
  'I follow the path north',
  'I ask the stranger about the citadel',
  'I draw my sword',
  'I rest by the fire',
  'I climb the ridge',
];
const actionFor = (turn: number) =>
  turn === 2 ? 'I name my horse Bucephalus and ride toward Kestrel Keep' : ACTIONS[turn % ACTIONS.length];

async function playStory(ctx: TestContext, turns: number) {
  const { client, id } = await registerUser(ctx.app);
  const started = await client.post('/api/story/start', { prompt: PREMISE });
  expect(started.statusCode).toBe(200);
  const storyId = started.json().storyId as number;
  for (let turn = 1; turn <= turns; turn += 1) {
    const res = await client.post(`/api/story/${storyId}/continue`, { message: actionFor(turn) });
    expect(res.statusCode).toBe(200);
    await ctx.app.turns.idle();
  }
  return { storyId, userId: id };
}

describe('a 150-turn story with the builtin narrator', () => {
  const requests: GenerationRequest[] = [];
  let ctx: TestContext;
  beforeAll(async () => {
    const builtin = createBuiltinNarrator({ builtinWordDelayMs: 0 });
    const spy: NarratorProvider = {
      ...builtin,
      generate: (request, onDelta) => (requests.push(request), builtin.generate(request, onDelta)),
    };
    ctx = await createTestApp(
      { llm: { ...loadConfig({ ...SMALL_WINDOW, BUILTIN_NARRATOR_WORD_DELAY_MS: '0' }).llm } },
      { narrator: spy },
    );
  });
  afterAll(() => ctx.close());

  it('stays inside the budget, keeps the premise and the names, and folds memory in chunks', async () => {
    const { storyId } = await playStory(ctx, TURNS);
    const count = await loadTokenCounter();
    const budget = computeBudget(4096, 500);
    const turnRequests = requests.filter((r) => r.task.kind === 'turn');
    // Folds and the compactions that merge the memory's oldest chunks: both are summarising calls.
    const summaries = requests.filter((r) => r.task.kind === 'summary' || r.task.kind === 'compact');
    expect(turnRequests).toHaveLength(TURNS + 1);
    const sizes = turnRequests.map((r) => countPrompt(r.system, r.messages, count));
    expect(Math.max(...sizes)).toBeLessThanOrEqual(budget.prompt);
    for (const r of turnRequests) expect(r.messages[0].content).toContain(PREMISE);
    const last = turnRequests.at(-1)!;
    expect(last.messages[0].content).toMatch(/Story memory[\s\S]*Bucephalus/);
    expect(last.messages[0].content).toContain('Kestrel Keep');
    // Folding happens in chunks, not every turn, and keeps the verbatim window bounded.
    expect(summaries.length).toBeGreaterThan(5);
    expect(summaries.length).toBeLessThan(TURNS / 3);
    expect(sizes.at(-1)!).toBeLessThan(budget.prompt);
    expect(Math.max(...sizes.slice(100))).toBeLessThanOrEqual(Math.max(...sizes.slice(20, 60)) * 1.25);

    const repos = createRepositories(ctx.database.db);
    const messages = await repos.stories.listMessages(storyId);
    expect(messages).toHaveLength(2 + TURNS * 2);
    const replies = messages
      .filter((m) => m.role === 'assistant')
      .map((m) => m.content.split('\n\n'))
      .flat();
    expect(new Set(replies).size).toBe(replies.length);
    const usage = await repos.usage.listForStory(storyId);
    expect(usage.filter((u) => u.kind === 'turn')).toHaveLength(TURNS + 1);
    expect(usage.filter((u) => u.kind === 'summary')).toHaveLength(summaries.length);
    expect(usage.every((u) => u.inputTokens > 0 && u.outputTokens > 0)).toBe(true);
  });
});

describe('a 150-turn story with an OpenAI-compatible server', () => {
  let fake: FakeLlmServer;
  let ctx: TestContext;
  // Varied prose of a real reply's length, as a model writes it (the loop guard lets it pass).
  const writer = proseWriter(150);
  const summaryNames = (text: string) => [...new Set(text.match(/\b[A-Z][a-z]{3,}\b/g) ?? [])].join(', ');
  beforeAll(async () => {
    fake = await startFakeLlmServer({ apiKey: 'sk-long' });
    fake.fallback = (request) => {
      const system = contentText(request.body.messages[0]?.content);
      if (system.startsWith('You maintain the memory')) {
        // A stand-in summariser: it keeps the names it is shown, as the prompt asks a real model to.
        return {
          kind: 'ok',
          text: `You met or heard of: ${summaryNames(contentText(request.body.messages[1].content))}.`,
          usage: { input: 900, output: 60 },
        };
      }
      return {
        kind: 'ok',
        text: writer.reply(12),
        usage: { input: 1500, output: 140 },
      };
    };
    const llm = fakeLlmConfig(fake, 'sk-long', {
      ...SMALL_WINDOW,
    });
    ctx = await createTestApp({ llm });
  });
  afterAll(async () => {
    await ctx.close();
    await fake.close();
  });

  it('never sends more than the budget, always sends the premise, and records usage as reported', async () => {
    const { storyId } = await playStory(ctx, TURNS);
    const count = await loadTokenCounter();
    const budget = computeBudget(4096, 500);
    const turns = fake.requests.filter(
      (r) => !contentText(r.body.messages[0]?.content).startsWith('You maintain the memory'),
    );
    expect(turns).toHaveLength(TURNS + 1);
    for (const r of turns) {
      const [system, ...messages] = r.body.messages.map((m) => ({
        role: m.role as 'user' | 'assistant',
        content: contentText(m.content),
      }));
      expect(countPrompt(system.content, messages, count)).toBeLessThanOrEqual(budget.prompt);
      expect(messages[0].content).toContain(PREMISE);
      expect(r.body.max_tokens ?? r.body.max_completion_tokens).toBe(500);
    }
    expect(contentText(turns.at(-1)!.body.messages[1].content)).toMatch(/Story memory[\s\S]*Bucephalus/);
    const usage = await createRepositories(ctx.database.db).usage.listForStory(storyId);
    const turnRows = usage.filter((u) => u.kind === 'turn');
    expect(turnRows).toHaveLength(TURNS + 1);
    expect(
      turnRows.every(
        (u) => u.inputTokens === 1500 && u.outputTokens === 140 && u.provider === 'openai' && u.model === 'fake-gpt',
      ),
    ).toBe(true);
    expect(usage.filter((u) => u.kind === 'summary').every((u) => u.inputTokens === 900 && u.outputTokens === 60)).toBe(
      true,
    );
  });
});
