// The OpenAI-compatible embeddings adapter against a local fake speaking the real wire protocol:
// what each request carries, the vectors as they come back (input order, unit length), and every
// fault (bad key, unknown model or path, 429, 5xx, hang, cancelled, dropped connection, unreachable,
// not JSON, a wrong count, index or dimension, a component that is not a finite number, a zero
// vector, too large) mapped to the right kind, with the key never in what is logged. Also the
// request's own rules, the registry, and what the fake's meaning-blind vectors can and cannot tell.
import { createServer } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectNoKeys, failureOf as failureOfKind } from '@server/test/failure-of';
import {
  hashedFeatureVector,
  startFakeEmbeddingsServer,
  type EmbeddingsBehaviour,
  type FakeEmbeddingsAnswer,
  type FakeEmbeddingsServer,
} from '@server/test/fake-embeddings-server';
import { listenOnLoopback } from '@server/test/listen-on-loopback';
import { MAX_EMBEDDINGS_ANSWER_BYTES } from './openai';
import { createEmbeddingsProvider } from './registry';
import { EMBEDDING_BATCH_MAX, EmbeddingsError, type EmbeddingRequest, type EmbeddingsConfig } from './types';

const KEY = 'sk-test-key-0123456789';
const PASSAGES = [
  'The lantern gutters as you step inside the lighthouse.',
  'Captain Mirela charts a course north, past the drowned bells.',
  'A wolf howls beyond the frozen river.',
];

const config = (baseUrl: string, overrides: Partial<EmbeddingsConfig> = {}): EmbeddingsConfig => ({
  provider: 'openai',
  baseUrl,
  apiKey: KEY,
  model: 'text-embedding-3-small',
  timeoutMs: 5000,
  queryTimeoutMs: 1500,
  maxPerHour: 600,
  cacheBytes: 64 * 1024 * 1024,
  ...overrides,
});

const failureOf = (promise: Promise<unknown>) => failureOfKind(promise, EmbeddingsError);

/** The vector as plain numbers, rounded so that float32 rounding does not matter. */
const rounded = (vector: Float32Array | number[], digits = 5) => Array.from(vector, (x) => Number(x.toFixed(digits)));
const norm = (vector: Float32Array) => Math.sqrt(vector.reduce((sum, x) => sum + x * x, 0));
const cosine = (a: number[], b: number[]) => {
  let dot = 0;
  for (let i = 0; i < a.length; i += 1) dot += a[i] * b[i];
  return dot / Math.sqrt(a.reduce((s, x) => s + x * x, 0) * b.reduce((s, x) => s + x * x, 0));
};

/** A port nothing listens on: bound once, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  const { port } = await listenOnLoopback(server);
  await new Promise((resolve) => server.close(resolve));
  return port;
}

let fake: FakeEmbeddingsServer;
beforeAll(async () => {
  fake = await startFakeEmbeddingsServer({ apiKey: KEY });
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
  fake.queue.length = 0;
  fake.fallback = { kind: 'ok' };
  fake.abandoned = 0;
});

/** One embed call against `baseUrl` (the shared fake's by default). */
function embed(
  request: Partial<EmbeddingRequest> = {},
  overrides: Partial<EmbeddingsConfig> = {},
  baseUrl = fake.baseUrl,
) {
  return createEmbeddingsProvider(config(baseUrl, overrides))!.embed({
    inputs: PASSAGES,
    signal: new AbortController().signal,
    ...request,
  });
}

/** A fake of its own (custom vectors or no key), closed after `run`. */
async function withFake<T>(
  options: Parameters<typeof startFakeEmbeddingsServer>[0],
  run: (own: FakeEmbeddingsServer) => Promise<T>,
): Promise<T> {
  const own = await startFakeEmbeddingsServer(options);
  try {
    return await run(own);
  } finally {
    await own.close();
  }
}

describe('OpenAI-compatible embeddings (POST /embeddings)', () => {
  it('sends the model, the inputs, the base64 format and the key, and answers unit vectors in order', async () => {
    const result = await embed();
    expect(fake.requests).toHaveLength(1);
    const [sent] = fake.requests;
    expect(sent.body).toEqual({ model: 'text-embedding-3-small', input: PASSAGES, encoding_format: 'base64' });
    expect(sent.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(sent.headers['content-type']).toBe('application/json');
    expect(result.vectors).toHaveLength(3);
    result.vectors.forEach((vector, i) => {
      expect(vector).toBeInstanceOf(Float32Array);
      expect(norm(vector)).toBeCloseTo(1, 5);
      const raw = hashedFeatureVector(PASSAGES[i], 256);
      const length = Math.hypot(...raw);
      expect(rounded(vector)).toEqual(rounded(raw.map((x) => x / length)));
    });
    // The fake's count: ⌈words × 1.3⌉ per input (9, 10 and 7 words).
    expect(result.inputTokens).toBe(12 + 13 + 10);
  });

  it('puts each vector at its input even when the items come in another order', async () => {
    const axes: Record<string, number[]> = { north: [5, 0, 0], east: [0, 2, 0], up: [0, 0, 0.5] };
    await withFake({ vectorize: (text) => axes[text] }, async (own) => {
      own.queue.push({ kind: 'ok', shuffle: true });
      const { vectors } = await embed({ inputs: ['north', 'east', 'up'] }, {}, own.baseUrl);
      expect(vectors.map((v) => rounded(v))).toEqual([
        [1, 0, 0],
        [0, 1, 0],
        [0, 0, 1],
      ]);
    });
  });

  it('scales every vector to unit length, huge components included', async () => {
    // Past float32's range, so as plain numbers (a server that answers them).
    const raw: Record<string, number[]> = { small: [3, 4], huge: [1e300, -1e300], tiny: [0, 1e-300] };
    await withFake({ vectorize: (text) => raw[text], numbersOnly: true }, async (own) => {
      const { vectors } = await embed({ inputs: ['small', 'huge', 'tiny'] }, {}, own.baseUrl);
      expect(vectors.map((v) => rounded(v))).toEqual([
        [0.6, 0.8],
        [0.70711, -0.70711],
        [0, 1],
      ]);
    });
  });

  it('sends no Authorization header without a key (Ollama, LM Studio, llama.cpp)', async () => {
    await withFake({}, async (open) => {
      const { vectors } = await embed({}, { apiKey: undefined }, open.baseUrl);
      expect(vectors).toHaveLength(3);
      expect(open.requests[0].headers.authorization).toBeUndefined();
    });
  });

  it('reports no token count when usage is missing or not a count', async () => {
    const edits: EmbeddingsBehaviour[] = [
      { kind: 'ok', noUsage: true },
      { kind: 'ok', edit: (answer) => ({ ...answer, usage: { prompt_tokens: -1, total_tokens: 0 } }) },
      { kind: 'ok', edit: (answer) => ({ ...answer, usage: { prompt_tokens: '12' } }) },
      { kind: 'ok', edit: (answer) => ({ ...answer, usage: { prompt_tokens: 0, total_tokens: 0 } }) },
    ];
    fake.queue.push(...edits);
    const tokens = [];
    for (let i = 0; i < edits.length; i += 1) tokens.push((await embed()).inputTokens);
    expect(tokens).toEqual([null, null, null, 0]);
  });

  it("takes the call's own timeout over the provider's (a turn's query)", async () => {
    fake.queue.push({ kind: 'hang' });
    const started = Date.now();
    const error = await failureOf(embed({ timeoutMs: 200 }, { timeoutMs: 10_000 }));
    expect([error.failure, error.detail]).toEqual(['timeout', expect.stringMatching(/within 200 ms/)]);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('refuses a request breaking its own rules before calling anyone (a bug, not a provider failure)', async () => {
    const calls = [
      embed({ inputs: [] }),
      embed({ inputs: Array.from({ length: EMBEDDING_BATCH_MAX + 1 }, (_, i) => `passage ${i}`) }),
      embed({ inputs: ['a passage', ''] }),
      embed({ timeoutMs: 0 }),
    ];
    const errors = await Promise.all(
      calls.map((call) =>
        call.then(
          () => null,
          (e: unknown) => e,
        ),
      ),
    );
    expect(errors.map((e) => (e instanceof EmbeddingsError ? 'EmbeddingsError' : (e as Error).message))).toEqual([
      'an embedding call takes 1 to 64 inputs, not 0',
      'an embedding call takes 1 to 64 inputs, not 65',
      'embedding input 1 is empty',
      "an embedding call's timeoutMs must be a whole number above 0, not 0",
    ]);
    expect(fake.requests).toHaveLength(0);
    const full = await embed({ inputs: Array.from({ length: EMBEDDING_BATCH_MAX }, (_, i) => `passage ${i}`) });
    expect(full.vectors).toHaveLength(EMBEDDING_BATCH_MAX);
  });
});

describe('faults', () => {
  it('maps a wrong key to misconfigured without the key in the detail, message or stack', async () => {
    const wrongKey = 'sk-wrong-key-9876543210';
    const error = await failureOf(embed({}, { apiKey: wrongKey }));
    expect(error.failure).toBe('misconfigured');
    expect(error.detail).toMatch(/HTTP 401 .*Incorrect API key provided/);
    expectNoKeys(error, [wrongKey, KEY]);
  });

  it('scrubs the key even when the provider echoes it back', async () => {
    fake.queue.push({ kind: 'status', status: 400, message: `Bad request for key ${KEY}` });
    const error = await failureOf(embed());
    expect(error.failure).toBe('misconfigured');
    expect(error.detail).toContain('Bad request for key [redacted]');
    expect(error.message).not.toContain(KEY);
  });

  it.each([400, 403, 404])('maps HTTP %i (unknown model, forbidden) to misconfigured', async (status) => {
    fake.queue.push({ kind: 'status', status, message: 'The model `text-embedding-9` does not exist.' });
    const error = await failureOf(embed());
    expect([error.failure, error.detail]).toEqual([
      'misconfigured',
      expect.stringMatching(new RegExp(`HTTP ${status} .*does not exist`)),
    ]);
  });

  it('maps a base URL that is not the API (404) to misconfigured', async () => {
    const error = await failureOf(embed({}, {}, fake.baseUrl.replace(/\/v1$/, '/nowhere')));
    expect([error.failure, error.detail]).toEqual(['misconfigured', expect.stringMatching(/HTTP 404 .*Invalid URL/)]);
  });

  it.each([429, 500, 503])('maps HTTP %i to unavailable', async (status) => {
    fake.queue.push({ kind: 'status', status, message: 'Engine overloaded' });
    const error = await failureOf(embed());
    expect([error.failure, error.detail]).toEqual([
      'unavailable',
      expect.stringMatching(new RegExp(`HTTP ${status} .*Engine overloaded`)),
    ]);
  });

  it('gives up on a hung provider at the timeout and hangs up on it', async () => {
    fake.queue.push({ kind: 'hang' });
    const error = await failureOf(embed({}, { timeoutMs: 300 }));
    expect([error.failure, error.detail]).toEqual(['timeout', expect.stringMatching(/within 300 ms/)]);
    await expect.poll(() => fake.abandoned).toBe(1);
  });

  it("stops when the caller's own signal aborts", async () => {
    fake.queue.push({ kind: 'hang' });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const error = await failureOf(embed({ signal: controller.signal }));
    expect([error.failure, error.detail]).toEqual(['timeout', expect.stringMatching(/cancelled/)]);
  });

  it('maps a connection dropped mid-body and an unreachable server to unavailable', async () => {
    fake.queue.push({ kind: 'drop' });
    const dropped = await failureOf(embed());
    expect([dropped.failure, dropped.detail]).toEqual([
      'unavailable',
      expect.stringMatching(/terminated|other side closed|socket/i),
    ]);
    const unreachable = await failureOf(embed({}, {}, `http://127.0.0.1:${await closedPort()}/v1`));
    expect([unreachable.failure, unreachable.detail]).toEqual(['unavailable', expect.stringMatching(/ECONNREFUSED/)]);
  });

  it('maps an answer that is not JSON, or JSON without a data list, to invalid_output', async () => {
    fake.queue.push({ kind: 'garbage' }, { kind: 'garbage', body: '{"object":"list"}' });
    const broken = await failureOf(embed());
    expect([broken.failure, broken.detail]).toEqual(['invalid_output', expect.stringMatching(/is not JSON: "\{/)]);
    const listless = await failureOf(embed());
    expect([listless.failure, listless.detail]).toEqual([
      'invalid_output',
      'answer has no data list: {"object":"list"}',
    ]);
  });

  it('maps a wrong count, an index out of range and an index twice to invalid_output', async () => {
    fake.queue.push(
      { kind: 'ok', edit: (answer) => ({ ...answer, data: answer.data.slice(1) }) },
      {
        kind: 'ok',
        edit: (answer) => ({ ...answer, data: answer.data.map((item, i) => ({ ...item, index: i + 1 })) }),
      },
      { kind: 'ok', edit: (answer) => ({ ...answer, data: answer.data.map((item) => ({ ...item, index: 0 })) }) },
      { kind: 'ok', edit: (answer) => ({ ...answer, data: answer.data.map(({ index: _, ...item }) => item) }) },
    );
    const details = [];
    for (let i = 0; i < 4; i += 1) {
      const error = await failureOf(embed());
      expect(error.failure).toBe('invalid_output');
      details.push(error.detail);
    }
    expect(details).toEqual([
      'answer has 2 embeddings for 3 inputs',
      'answer item 2 has index 3, not 0 to 2',
      'answer has index 0 twice',
      'answer item 0 has index undefined, not 0 to 2',
    ]);
  });

  it('maps vectors of mixed or impossible dimensions to invalid_output', async () => {
    const raw: Record<string, number[]> = { two: [1, 2], three: [1, 2, 3], none: [], wide: new Array(8193).fill(1) };
    await withFake({ vectorize: (text) => raw[text] }, async (own) => {
      const details = [];
      for (const inputs of [['two', 'three'], ['none'], ['wide']]) {
        const error = await failureOf(embed({ inputs }, {}, own.baseUrl));
        expect(error.failure).toBe('invalid_output');
        details.push(error.detail);
      }
      expect(details).toEqual([
        "answer item 1: embedding has 3 dimensions where the batch's first has 2",
        'answer item 0: embedding has 0 dimensions, outside 1 to 8192',
        'answer item 0: embedding has 8193 dimensions, outside 1 to 8192',
      ]);
    });
  });

  it('reads a server that answers plain numbers whatever is asked (Ollama) as one that answers base64', async () => {
    const asked = await embed();
    await withFake({ apiKey: KEY, numbersOnly: true }, async (own) => {
      const { vectors } = await embed({}, {}, own.baseUrl);
      expect(own.requests[0].body.encoding_format).toBe('base64');
      expect(vectors.map((v) => rounded(v))).toEqual(asked.vectors.map((v) => rounded(v)));
    });
  });

  it('maps a component that is not a finite number, a zero vector and bad base64 to invalid_output', async () => {
    // NaN goes over JSON as null and in base64 as itself; 1e999 parses to Infinity.
    const raw: Record<string, number[]> = { nan: [1, NaN], zero: [0, 0, 0] };
    await withFake({ vectorize: (text) => raw[text] ?? [1, 1] }, async (own) => {
      const item = (embedding: unknown) => (answer: FakeEmbeddingsAnswer) => ({
        ...answer,
        data: [{ index: 0, embedding }],
      });
      own.queue.push(
        { kind: 'ok' },
        { kind: 'ok' },
        { kind: 'garbage', body: '{"data":[{"index":0,"embedding":[0.5,1e999]}]}' },
        { kind: 'garbage', body: '{"data":[{"index":0,"embedding":[0.5,"0.25"]}]}' },
        { kind: 'garbage', body: '{"data":[{"index":0,"embedding":[1,null]}]}' },
        { kind: 'ok', edit: item('AACAPwAAAD8A') },
        { kind: 'ok', edit: item('not base64!') },
        // Of a valid length, with a character outside the alphabet, or padding inside.
        { kind: 'ok', edit: item('AACAPwAA*D8AAACA') },
        { kind: 'ok', edit: item('AACA=wAAAD8AAACA') },
        { kind: 'ok', edit: item({ values: [1, 2] }) },
      );
      const details = [];
      for (const input of [
        'nan',
        'zero',
        'infinite',
        'text',
        'null',
        'short',
        'symbols',
        'star',
        'padding',
        'object',
      ]) {
        const error = await failureOf(embed({ inputs: [input] }, {}, own.baseUrl));
        expect(error.failure).toBe('invalid_output');
        details.push(error.detail);
      }
      expect(details).toEqual([
        'answer item 0: component 1 is not a finite number: NaN',
        'answer item 0: embedding is all zeros',
        'answer item 0: component 1 is not a finite number: Infinity',
        'answer item 0: component 1 is not a finite number: "0.25"',
        'answer item 0: component 1 is not a finite number: null',
        'answer item 0: embedding is not base64 of float32 values: "AACAPwAAAD8A"',
        'answer item 0: embedding is not base64 of float32 values: "not base64!"',
        'answer item 0: embedding is not base64 of float32 values: "AACAPwAA*D8AAACA"',
        'answer item 0: embedding is not base64 of float32 values: "AACA=wAAAD8AAACA"',
        'answer item 0: embedding is neither base64 nor a list of numbers: {"values":[1,2]}',
      ]);
    });
  });

  it('refuses an answer past the size limit', async () => {
    fake.queue.push({ kind: 'garbage', body: ' '.repeat(MAX_EMBEDDINGS_ANSWER_BYTES + 1) });
    const error = await failureOf(embed());
    expect([error.failure, error.detail]).toEqual(['invalid_output', expect.stringMatching(/too large/)]);
  });
});

describe('registry', () => {
  it("answers no provider for 'none' and the OpenAI-compatible one otherwise", () => {
    expect(createEmbeddingsProvider(config('http://x', { provider: 'none' }))).toBeNull();
    expect(createEmbeddingsProvider(config('http://x', { model: 'nomic-embed-text' }))).toMatchObject({
      id: 'openai',
      model: 'nomic-embed-text',
    });
  });
});

describe("the fake's vectors", () => {
  it('bring together texts sharing words or pieces of words, and nothing else: they are blind to meaning', () => {
    const v = (text: string) => hashedFeatureVector(text, 256);
    const lighthouse = v('The lantern gutters in the lighthouse.');
    expect(cosine(lighthouse, v('She lit the lanterns at the lighthouse door.'))).toBeGreaterThan(0.4);
    expect(Math.abs(cosine(lighthouse, v('A wolf howls beyond the frozen river.')))).toBeLessThan(0.2);
    // A real model puts these close; the fake cannot.
    expect(Math.abs(cosine(v('mount'), v('horse')))).toBeLessThan(0.2);
    // Never the zero vector, which no real model gives, even for stop words or symbols alone.
    expect(v('the').some((x) => x !== 0)).toBe(true);
    expect(v('?!').some((x) => x !== 0)).toBe(true);
  });
});
