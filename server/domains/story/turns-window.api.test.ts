// A turn costs its window, not its story: on a story of 10,000 unfolded messages, one action reads
// from the database and counts with the tokenizer no more than the prompt's window (and the fold's
// one piece), and what the model is sent fits. Counted on the real repository (every message a
// stories-repository call returns) and the real tokenizer (every count, wrapped).
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { computeBudget, countPrompt } from '@server/ai/llm/context';
import { windowLimits } from '@server/ai/llm/fold';
import { createNarratorProvider } from '@server/ai/llm/registry';
import { loadTokenCounter } from '@server/ai/llm/tokenizer';
import { createRepositories, type Repositories } from '@server/db/repositories';
import { contentText, startFakeLlmServer, type FakeLlmServer } from '@server/test/fake-llm-server';
import { createTestApp, registerUser, testConfig, type TestContext, fakeLlmConfig } from '@server/test/test-app';
import { allowanceConfig, createAllowance } from '../limits/allowance';
import { createTurnService } from './turns';
import { catalogueOfOne } from '@server/kernel/config';
import { createNarratorService } from '../narrators/narrators';
import { createQuotaService } from '../limits/quotas';
import { createRequestLimiter } from '../limits/request-limits';
import { defaultPreferences } from '../preferences/preferences';

const quiet = { info: () => {}, warn: () => {}, error: () => {} };
const tokenizer = vi.hoisted(() => ({ calls: 0, chars: 0 }));
vi.mock('@server/ai/llm/tokenizer', async (importOriginal) => {
  const original = await importOriginal<typeof import('@server/ai/llm/tokenizer')>();
  return {
    ...original,
    loadTokenCounter: async () => {
      const count = await original.loadTokenCounter();
      return (text: string) => {
        tokenizer.calls += 1;
        tokenizer.chars += text.length;
        return count(text);
      };
    },
  };
});

const MESSAGES = 10_000;
const CONTEXT_TOKENS = 8192;
/** What a turn counts besides the messages: the system prompt, premise, memory, action, labels, the summary's instructions. */
const FIXED_COUNTS = 24;
const FIXED_CHARS = 20_000;

/** Messages (anything with a role and a content) in what a repository call answered. */
function messagesIn(value: unknown): Array<{ content: string }> {
  if (Array.isArray(value)) return value.flatMap(messagesIn);
  if (value && typeof value === 'object') {
    if ('role' in value && 'content' in value && typeof value.content === 'string') return [{ content: value.content }];
    return Object.values(value).flatMap(messagesIn);
  }
  return [];
}

/** The repositories with every stories call's answer counted: how many messages, how many characters. */
function countingRepositories(repos: Repositories) {
  const calls: Array<{ method: string; messages: number; chars: number }> = [];
  const stories = new Proxy(repos.stories, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        const answer: unknown = await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        const messages = messagesIn(answer);
        calls.push({
          method: String(key),
          messages: messages.length,
          chars: messages.reduce((sum, m) => sum + m.content.length, 0),
        });
        return answer;
      };
    },
  });
  return { repos: { ...repos, stories }, calls };
}

let ctx: TestContext;
let fake: FakeLlmServer;
beforeAll(async () => {
  fake = await startFakeLlmServer({ apiKey: 'sk-window' });
  fake.fallback = {
    kind: 'ok',
    text: 'The lamp flares and the shadows draw back. What do you do?',
    usage: { input: 10, output: 12 },
  };
  ctx = await createTestApp();
});
afterAll(async () => {
  await ctx.close();
  await fake.close();
});

it('reads and counts no more than the window of a 10,000-message story, and sends what fits', async () => {
  const { client, id: userId } = await registerUser(ctx.app);
  const storyId = (
    await client.post('/api/story/start', { prompt: 'A harbour town where the tide keeps every secret' })
  ).json().storyId as number;
  // Nothing folded: every one of these is unfolded, as after importing a long story.
  await ctx.database.executeSql(
    `insert into story_messages (story_id, role, content, turn, attempts)
     select $1, case when g % 2 = 1 then 'user' else 'assistant' end,
       'Message ' || g || ': ' || repeat('The tide turns under a grey sky. ', 1 + g % 12), (g + 1) / 2 + 1, 1
     from generate_series(1, ${MESSAGES}) g`,
    [storyId],
  );

  const llm = fakeLlmConfig(fake, 'sk-window', {
    LLM_CONTEXT_TOKENS: String(CONTEXT_TOKENS),
  });
  const budget = computeBudget(llm.contextTokens, llm.maxOutputTokens);
  const window = windowLimits(budget);
  const { repos, calls } = countingRepositories(createRepositories(ctx.database.db));
  const provider = createNarratorProvider(llm);
  const turnService = createTurnService({
    repos,
    narrators: createNarratorService({ catalogue: catalogueOfOne(llm), defaultProvider: provider, users: repos.users }),
    llm,
    allowance: createAllowance({
      repos,
      limiter: createRequestLimiter({ now: () => new Date(), shared: null, log: quiet }),
      config: allowanceConfig(testConfig({ llm })),
      now: () => new Date(),
      log: quiet,
    }),
    quotas: createQuotaService({ repos, limits: testConfig().quotas, monthlyTokenLimit: null, now: () => new Date() }),
    preferences: defaultPreferences,
    now: () => new Date(),
    flush: async () => {},
    log: quiet,
  });

  tokenizer.calls = 0;
  tokenizer.chars = 0;
  const turn = await turnService.continueStory(userId, storyId, 'I light the lamp');
  expect((await turn.run()).message).toContain('The lamp flares');
  await turnService.idle();

  // The database: no call answers more than a window's messages (the action comes with the turn's).
  for (const call of calls) expect(call.messages, call.method).toBeLessThanOrEqual(window.rows + 1);
  const messagesRead = calls.reduce((sum, c) => sum + c.messages, 0);
  const charsRead = calls.reduce((sum, c) => sum + c.chars, 0);
  expect(messagesRead).toBeLessThan(MESSAGES / 5);
  // The tokenizer: each message read at most once, besides a handful of fixed texts.
  expect(tokenizer.calls).toBeLessThanOrEqual(messagesRead + FIXED_COUNTS);
  expect(tokenizer.chars).toBeLessThanOrEqual(charsRead + FIXED_CHARS);

  // What the model was sent: the turn within its budget, and one summary piece within the context.
  const count = await loadTokenCounter();
  const sent = fake.requests.map((r) => {
    const [system, ...messages] = r.body.messages.map((m) => ({
      role: m.role as 'user' | 'assistant',
      content: contentText(m.content),
    }));
    return { system: system.content, messages, maxTokens: r.body.max_tokens ?? r.body.max_completion_tokens ?? 0 };
  });
  const summaries = sent.filter((r) => r.system.startsWith('You maintain the memory'));
  const turns = sent.filter((r) => !r.system.startsWith('You maintain the memory'));
  expect(turns).toHaveLength(1);
  expect(countPrompt(turns[0].system, turns[0].messages, count)).toBeLessThanOrEqual(budget.prompt);
  // The action last, after whatever the memory bank recalled (the opening, outside the window read).
  expect(turns[0].messages.at(-1)!.content).toMatch(/(?:^|\n\n)I light the lamp$/);
  expect(turns[0].messages.at(-2)!.content).toContain(`Message ${MESSAGES}:`);
  expect(summaries).toHaveLength(1);
  expect(countPrompt(summaries[0].system, summaries[0].messages, count) + summaries[0].maxTokens).toBeLessThanOrEqual(
    CONTEXT_TOKENS,
  );
  // The piece starts at the oldest unfolded message (the opening reply, then message 1).
  expect(summaries[0].messages[0].content).toMatch(
    /New turns:\nNarrator \(turn 0\): [^]*\n\nPlayer \(turn \d+\): Message 1: /,
  );
});
