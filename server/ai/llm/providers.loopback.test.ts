// The OpenAI-compatible and Anthropic adapters against a local fake server speaking each real wire
// protocol: what the request carries, usage exactly as reported, and every failure mapped to the
// right kind (5xx, hang past the timeout, dropped stream, bad key, unknown model).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failureOf as failureOfKind } from '@server/test/failure-of';
import { loadConfig, type LlmConfig } from '@server/kernel/config';
import { contentText, DEFAULT_FAKE_TEXT, startFakeLlmServer, type FakeLlmServer } from '@server/test/fake-llm-server';
import { createNarratorProvider } from './registry';
import { NarratorError, type GenerationRequest } from './types';
import { DEFAULT_PREFERENCES } from '@shared/schemas/preferences';

const KEY = 'sk-test-key';

function configFor(provider: 'openai' | 'anthropic', baseUrl: string, overrides: Partial<LlmConfig> = {}): LlmConfig {
  const env = {
    LLM_PROVIDER: provider,
    LLM_BASE_URL: baseUrl,
    LLM_API_KEY: KEY,
    LLM_MODEL: 'story-model-1',
    LLM_TIMEOUT_MS: '5000',
  };
  return { ...loadConfig(env).llm, ...overrides };
}

const request: GenerationRequest = {
  system: 'You are the narrator. Content rating general.',
  messages: [
    { role: 'user', content: 'Story premise: Ada Quill hunts a thief.' },
    { role: 'assistant', content: 'The fog is thick tonight.' },
    { role: 'user', content: 'I light my lamp' },
  ],
  maxOutputTokens: 321,
  temperature: 0.6,
  task: {
    kind: 'turn',
    storyId: 1,
    turn: 1,
    attempt: 0,
    premise: 'Ada Quill hunts a thief.',
    action: 'I light my lamp',
    recent: [],
    preferences: DEFAULT_PREFERENCES,
  },
};

const failureOf = (promise: Promise<unknown>) => failureOfKind(promise, NarratorError);

describe.each(['openai', 'anthropic'] as const)('%s adapter', (protocol) => {
  let fake: FakeLlmServer;
  beforeAll(async () => {
    fake = await startFakeLlmServer({ apiKey: KEY });
  });
  afterAll(() => fake.close());

  const provider = (overrides: Partial<LlmConfig> = {}) =>
    createNarratorProvider(configFor(protocol, fake.baseUrl, overrides));

  it('streams the reply and sends model, key, system prompt, context and limits', async () => {
    fake.queue.push({ kind: 'ok', usage: { input: 777, output: 55, cached: 512 } });
    const deltas: string[] = [];
    const result = await provider().generate(request, (text) => deltas.push(text));
    // All input counted, cache reads included; the cached part as the provider reported it.
    expect(result).toEqual({
      text: DEFAULT_FAKE_TEXT,
      usage: { inputTokens: 777, outputTokens: 55, cachedInputTokens: 512 },
    });
    expect(deltas.join('')).toBe(DEFAULT_FAKE_TEXT);
    expect(deltas.length).toBeGreaterThan(5);

    const sent = fake.requests.at(-1)!;
    expect(sent.protocol).toBe(protocol);
    expect(sent.body.model).toBe('story-model-1');
    expect(sent.body.stream).toBe(true);
    expect(sent.body.temperature).toBe(0.6);
    if (protocol === 'openai') {
      expect(sent.headers.authorization).toBe(`Bearer ${KEY}`);
      expect(sent.body.max_tokens ?? sent.body.max_completion_tokens).toBe(321);
      expect(sent.body.messages[0]).toEqual({ role: 'system', content: request.system });
      expect(sent.body.messages.slice(1).map((m) => [m.role, contentText(m.content)])).toEqual(
        request.messages.map((m) => [m.role, m.content]),
      );
    } else {
      expect(sent.headers['x-api-key']).toBe(KEY);
      expect(sent.headers['anthropic-version']).toBeTruthy();
      expect(sent.body.max_tokens).toBe(321);
      expect(contentText(sent.body.system)).toBe(request.system);
      expect(sent.body.messages.map((m) => [m.role, contentText(m.content)])).toEqual(
        request.messages.map((m) => [m.role, m.content]),
      );
      // Cache breakpoints after the system prompt, the premise message and the last turn before the action.
      const marked = (content: unknown) => JSON.stringify(content).includes('"cache_control":{"type":"ephemeral"}');
      expect(marked(sent.body.system)).toBe(true);
      expect(sent.body.messages.map((m) => marked(m.content))).toEqual([true, true, false]);
    }
  });

  it('answers without streaming when no listener is given, with the reported usage', async () => {
    fake.queue.push({ kind: 'ok', text: 'The Clockwork Heist', usage: { input: 40, output: 6 } });
    const result = await provider().generate(request);
    expect(result).toEqual({
      text: 'The Clockwork Heist',
      usage: { inputTokens: 40, outputTokens: 6, cachedInputTokens: 0 },
    });
    expect(fake.requests.at(-1)!.body.stream ?? false).toBe(false);
  });

  it('accepts a reply cut by the length cap', async () => {
    fake.queue.push({ kind: 'ok', text: 'You run. The door', finish: protocol === 'openai' ? 'length' : 'max_tokens' });
    expect((await provider().generate(request, () => {})).text).toBe('You run. The door');
  });

  it('maps a 5xx to unavailable, streaming or not', async () => {
    fake.queue.push({ kind: 'status', status: 503 }, { kind: 'status', status: 500 });
    expect((await failureOf(provider().generate(request, () => {}))).failure).toBe('unavailable');
    expect((await failureOf(provider().generate(request))).failure).toBe('unavailable');
  });

  it('maps a bad key and an unknown model to misconfigured', async () => {
    const badKey = await failureOf(provider({ apiKey: 'sk-wrong' }).generate(request, () => {}));
    expect(badKey.failure).toBe('misconfigured');
    expect(badKey.detail).toMatch(/HTTP 401/);
    fake.queue.push({ kind: 'status', status: 404, message: 'model not found' });
    expect((await failureOf(provider().generate(request))).failure).toBe('misconfigured');
  });

  it('gives up on a hung provider at the timeout and hangs up on it', async () => {
    fake.queue.push({ kind: 'hang' });
    const before = fake.abandoned;
    const started = Date.now();
    const error = await failureOf(provider({ timeoutMs: 300 }).generate(request, () => {}));
    expect(error.failure).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(3000);
    await expect.poll(() => fake.abandoned).toBe(before + 1);
  });

  it('times out a stream that stalls after it started', async () => {
    fake.queue.push({ kind: 'ok', chunkDelayMs: 200 });
    const deltas: string[] = [];
    const error = await failureOf(provider({ timeoutMs: 500 }).generate(request, (t) => deltas.push(t)));
    expect(error.failure).toBe('timeout');
    expect(deltas.length).toBeGreaterThan(0);
  });

  it('rejects a dropped stream instead of passing off the partial text', async () => {
    fake.queue.push({ kind: 'drop', afterChunks: 4 });
    const deltas: string[] = [];
    const error = await failureOf(provider().generate(request, (t) => deltas.push(t)));
    expect(error.failure).toBe('unavailable');
    expect(deltas.join('')).toBe('The lantern gutters as ');
  });

  it('maps a rate limit to unavailable and a 408 to timeout', async () => {
    fake.queue.push({ kind: 'status', status: 429, message: 'Rate limit reached' }, { kind: 'status', status: 408 });
    const limited = await failureOf(provider().generate(request, () => {}));
    expect([limited.failure, limited.detail]).toEqual([
      'unavailable',
      expect.stringMatching(/HTTP 429 .*Rate limit reached/),
    ]);
    expect((await failureOf(provider().generate(request))).failure).toBe('timeout');
  });

  it('never puts the key in a failure detail, even when the provider echoes it', async () => {
    fake.queue.push({ kind: 'status', status: 400, message: `invalid request for key ${KEY}` });
    const error = await failureOf(provider().generate(request, () => {}));
    expect(error.failure).toBe('misconfigured');
    expect(error.detail).toContain('[redacted]');
    expect(error.detail).not.toContain(KEY);
  });

  it('rejects a garbled answer, whole or streamed', async () => {
    fake.queue.push({ kind: 'garbage' }, { kind: 'garbage' });
    const whole = await failureOf(provider().generate(request));
    expect([whole.failure, whole.detail]).toEqual(['unavailable', expect.stringMatching(/not JSON/)]);
    const streamed = await failureOf(provider().generate(request, () => {}));
    expect([streamed.failure, streamed.detail]).toEqual(['unavailable', expect.stringMatching(/garbled event/)]);
  });

  it('rejects a 200 that is not an event stream when streaming', async () => {
    fake.queue.push({ kind: 'garbage', body: '<html>Bad gateway</html>', contentType: 'text/html' });
    const error = await failureOf(provider().generate(request, () => {}));
    expect([error.failure, error.detail]).toEqual(['unavailable', expect.stringMatching(/expected an event stream/)]);
  });

  it("fails on the provider's own error event mid-stream, after the words it sent", async () => {
    fake.queue.push({ kind: 'stream-error', message: 'Overloaded', afterChunks: 2 });
    const deltas: string[] = [];
    const error = await failureOf(provider().generate(request, (t) => deltas.push(t)));
    expect([error.failure, error.detail]).toEqual(['unavailable', expect.stringMatching(/Overloaded/)]);
    expect(deltas.join('')).toBe('The lantern ');
  });

  it('reuses one kept-alive connection for consecutive turns', async () => {
    await provider().generate(request, () => {});
    const before = fake.connections;
    for (let i = 0; i < 4; i += 1) await provider().generate(request, () => {});
    await provider().generate(request);
    expect(fake.connections).toBe(before);
  });

  it('reports an unreachable server as unavailable', async () => {
    const error = await failureOf(provider({ baseUrl: 'http://127.0.0.1:1/v1' }).generate(request, () => {}));
    expect(error.failure).toBe('unavailable');
  });
});
