// The streaming benchmarks' fake provider as they run it: its own process, a steady streamed reply of
// the configured length in OpenAI's wire format, its timing changed over HTTP, its counts and log.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let child: ChildProcess;
let baseUrl = '';
const origin = () => new URL(baseUrl).origin;

beforeAll(async () => {
  child = spawn(
    process.execPath,
    ['--import', 'tsx', new URL('./fake-openai.ts', import.meta.url).pathname, '0', '12', '1', 'sk-t'],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  baseUrl = String((await createInterface({ input: child.stdout! })[Symbol.asyncIterator]().next()).value).trim();
}, 30_000);
afterAll(() => {
  child.kill('SIGTERM');
});

const chat = (body: object, key = 'sk-t') =>
  fetch(`${baseUrl}/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

/** The content deltas and the other data lines of an SSE answer. */
function parse(text: string) {
  const data = text
    .split('\n\n')
    .filter((block) => block.startsWith('data: '))
    .map((block) => block.slice(6));
  const chunks = data.filter((d) => d !== '[DONE]').map((d) => JSON.parse(d));
  const words = chunks.map((c) => c.choices[0]?.delta?.content).filter((c): c is string => Boolean(c));
  return { data, chunks, words };
}

describe('the benchmarks fake provider', () => {
  it('streams the configured number of words, a finish, the usage and [DONE], as OpenAI does', async () => {
    expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const res = await chat({ model: 'm', stream: true, stream_options: { include_usage: true }, messages: [] });
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const { data, chunks, words } = parse(await res.text());
    expect(words).toHaveLength(12);
    expect(words.join('')).toMatch(/^The rain drums .* What do you do\?$/);
    expect(chunks[0].choices[0].delta).toEqual({ role: 'assistant', content: '' });
    expect(chunks.at(-2).choices[0].finish_reason).toBe('stop');
    expect(chunks.at(-1).usage).toEqual({
      prompt_tokens: 1500,
      completion_tokens: 14,
      total_tokens: 1514,
      prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
    });
    expect(data.at(-1)).toBe('[DONE]');
  });

  it('takes a new timing for the next requests, and answers a whole completion without stream', async () => {
    await fetch(`${origin()}/__bench/config`, { method: 'POST', body: JSON.stringify({ words: 40 }) });
    const { words } = parse(await (await chat({ model: 'm', stream: true, messages: [] })).text());
    expect(words).toHaveLength(40);
    expect(new Set(words).size).toBeGreaterThan(20); // varied prose, not one word over and over
    const whole = await (await chat({ model: 'm', messages: [] })).json();
    expect(whole.choices[0].message.content).toMatch(/^You crossed the harbour/);
  });

  it('counts replies and refusals, and logs request sizes with the largest body until reset', async () => {
    expect((await chat({ model: 'm', messages: [] }, 'sk-wrong')).status).toBe(401);
    const stats = await (await fetch(`${origin()}/__bench/stats`)).json();
    expect(stats).toMatchObject({ streams: 2, completions: 1, active: 0, rejected: 1 });
    expect(stats.timing).toEqual({ ttftMs: 0, words: 40, chunkMs: 1 });
    const log = await (await fetch(`${origin()}/__bench/log`)).json();
    expect(log).toMatchObject({ requests: 4, streamed: 2 });
    expect(JSON.parse(log.largestBody).stream_options).toEqual({ include_usage: true });
    await fetch(`${origin()}/__bench/log/reset`, { method: 'POST' });
    expect(await (await fetch(`${origin()}/__bench/log`)).json()).toEqual({
      requests: 0,
      streamed: 0,
      requestBytes: 0,
      largestBytes: 0,
      largestBody: '',
    });
  });
});

describe('the benchmarks fake provider with embeddings (bench:stream --embeddings)', () => {
  let embedChild: ChildProcess;
  let lines: string[] = [];

  beforeAll(async () => {
    embedChild = spawn(
      process.execPath,
      ['--import', 'tsx', new URL('./fake-openai.ts', import.meta.url).pathname, '0', '12', '1', 'sk-t', '0'],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const read = createInterface({ input: embedChild.stdout! })[Symbol.asyncIterator]();
    lines = [String((await read.next()).value).trim(), String((await read.next()).value).trim()];
  }, 30_000);
  afterAll(() => {
    embedChild.kill('SIGTERM');
  });

  const embed = (input: string | string[], key = 'sk-t') =>
    fetch(`${lines[1]}/embeddings`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'bench-embed', input, encoding_format: 'float' }),
    });

  it('prints the chat base URL first and the embeddings base URL second, each on its own port', () => {
    expect(lines[0]).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(lines[1]).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(new URL(lines[1]).port).not.toBe(new URL(lines[0]).port);
  });

  it('answers dense 1536-dimension vectors, the same for the same text, and counts the calls', async () => {
    const first = await (await embed('I steer the boat towards the lantern at mark 1.')).json();
    const [vector] = first.data.map((d: { embedding: number[] }) => d.embedding);
    expect(vector).toHaveLength(1536);
    expect(vector.filter((v: number) => v === 0).length).toBeLessThan(10); // dense, as a real model's
    const again = await (
      await embed(['I steer the boat towards the lantern at mark 1.', 'The harbour at night.'])
    ).json();
    expect(again.data[0].embedding).toEqual(vector);
    expect((await embed('x', 'sk-wrong')).status).toBe(401);
    const stats = await (await fetch(`${new URL(lines[0]).origin}/__bench/stats`)).json();
    expect(stats.embeddings).toEqual({ calls: 3, inputs: 4, single: 2, delayMs: 0 });
  });

  it('takes a new delay for the next answers', async () => {
    await fetch(`${new URL(lines[0]).origin}/__bench/embeddings`, {
      method: 'POST',
      body: JSON.stringify({ delayMs: 120 }),
    });
    const started = performance.now();
    expect((await embed('a slower answer')).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(110);
  });
});
