// No model request exceeds LLM_CONTEXT_TOKENS, side calls included: a title and a style
// sheet asked for a story with the longest premise (4,000 characters of a script that costs a token a
// character) and an imported 20,000-character opening fit the smallest window the narrator may be
// given (LLM_MAX_OUTPUT_TOKENS + 2,048), counted from what the fake OpenAI-compatible server was sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countPrompt } from '@server/ai/llm/context';
import { loadTokenCounter } from '@server/ai/llm/tokenizer';
import { STYLE_SYSTEM_PROMPT } from '@server/domains/images/style-sheet';
import { startFakeLlmServer, type FakeLlmServer, type RecordedRequest } from '@server/test/fake-llm-server';
import { registerUser, type TestContext, createPaintingTestApp, fakeLlmConfig } from '@server/test/test-app';

const KEY = 'sk-side-call-size';
const CONTEXT = 2548;
const OUTPUT = 500;
let fake: FakeLlmServer;
let ctx: TestContext;

beforeAll(async () => {
  fake = await startFakeLlmServer({ apiKey: KEY });
  const llm = fakeLlmConfig(fake, KEY, {
    LLM_CONTEXT_TOKENS: String(CONTEXT),
    LLM_MAX_OUTPUT_TOKENS: String(OUTPUT),
  });
  ctx = await createPaintingTestApp({ llm });
});
afterAll(async () => {
  await ctx.close();
  await fake.close();
});

const textOf = (content: RecordedRequest['body']['messages'][number]['content']) =>
  typeof content === 'string' ? content : content.map((part) => part.text).join('');

describe('side calls on the longest story texts', () => {
  it('ask for a title and a style sheet in requests that fit the smallest window', async () => {
    const { client } = await registerUser(ctx.app);
    // Han characters: about a token each, the dearest script for its length.
    const premise = `Captain Ilsa Marrow ${'雨'.repeat(3970)}`;
    const opening = `Brother Aldous waits at the gate. ${'霧の中で鐘が鳴る。'.repeat(2200)}`.slice(0, 20_000);
    const at = new Date().toISOString();
    const file = {
      format: 'taleweaver.story',
      version: 2,
      exportedAt: at,
      story: { title: 'Untitled', premise, memory: '', memoryCovers: 0, notes: '', createdAt: at },
      messages: [
        { role: 'user', content: premise, turn: 0, isInitial: true, createdAt: at },
        { role: 'assistant', content: opening, turn: 0, isInitial: false, createdAt: at },
      ],
    };
    const imported = await client.request({ method: 'POST', url: '/api/story/import', json: file });
    expect(imported.statusCode).toBe(201);
    const { storyId } = imported.json();
    // The style sheet from the imported story (its 20,000-character opening), the title from a new story (an imported one keeps its file's).
    const before = fake.requests.length;
    fake.fallback = (request) =>
      request.body.messages.some((m) => textOf(m.content) === STYLE_SYSTEM_PROMPT)
        ? { kind: 'ok', text: '{"characters": []}' }
        : { kind: 'ok', text: 'The Rain Captain' };
    expect((await client.get(`/api/story/${storyId}/style-sheet`)).statusCode).toBe(200);
    const { storyId: started } = (await client.post('/api/story/start', { prompt: premise })).json();
    expect((await client.get(`/api/story/${started}/generate-title`)).json().title).toBe('The Rain Captain');

    const count = await loadTokenCounter();
    const sent = fake.requests.slice(before);
    const kinds = sent.map((r) =>
      r.body.messages.some((m) => textOf(m.content) === STYLE_SYSTEM_PROMPT)
        ? 'style'
        : r.body.stream
          ? 'turn'
          : 'other',
    );
    expect(kinds).toContain('style');
    for (const request of sent) {
      const [system, ...messages] = request.body.messages.map((m) => ({
        role: m.role as 'user' | 'assistant',
        content: textOf(m.content),
      }));
      const tokens =
        countPrompt(system.content, messages, count) +
        (request.body.max_tokens ?? request.body.max_completion_tokens ?? 0);
      expect(tokens).toBeLessThanOrEqual(CONTEXT);
    }
  });
});
