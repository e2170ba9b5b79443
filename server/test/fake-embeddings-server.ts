// A local stand-in for OpenAI's embeddings API on 127.0.0.1, speaking the real wire protocol:
// POST /v1/embeddings (JSON `{model, input, encoding_format}` in, `{object: 'list', data, model,
// usage}` out, each vector as base64 of its float32 values when base64 is asked for, as OpenAI does). It checks the key like the real service when given one (else it takes any request,
// like Ollama or llama.cpp's server), refuses a malformed request with OpenAI's 400s, records what
// it was sent, and fails on demand: an error status, a hang, a connection dropped mid-body, a 200
// that is not the protocol, or an answer edited into a wrong one.
//
// Its vectors are a hashed bag of features (word stems and character trigrams), NOT meaning: texts
// that share words or pieces of words come out close, and all others near-orthogonal. It cannot
// know that a "mount" is a "horse" or that "dusk" is near "evening", which a real model does; a
// benchmark on it measures the plumbing and lexical overlap, never semantic recall.
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { bodyServer, json, masked, sendOpenAiError as sendError, sleep } from './fake-openai-answers';
import { listenOnLoopback } from './listen-on-loopback';

export interface FakeEmbeddingsAnswer {
  object: 'list';
  /** Each vector as base64 of its float32 values when the request asked for base64, else as numbers. */
  data: Array<{ object: 'embedding'; index: number; embedding: number[] | string }>;
  model: string;
  usage?: { prompt_tokens: number; total_tokens: number };
}

export type EmbeddingsBehaviour =
  | {
      kind: 'ok';
      delayMs?: number;
      /** Items in reverse order: the protocol's `index`, not the list's order, says which input each is for. */
      shuffle?: boolean;
      /** Leave `usage` out, as some local servers do. */
      noUsage?: boolean;
      /** Rewrites the answer before it is sent (a wrong count, an index twice…); what it returns is sent as JSON. */
      edit?: (answer: FakeEmbeddingsAnswer) => unknown;
    }
  /** OpenAI's `{error: {message, type, code}}` with this status. */
  | { kind: 'status'; status: number; message?: string }
  /** Never answers; the connection stays open until the client gives up. */
  | { kind: 'hang' }
  /** Starts a 200 answer, writes part of its body, then destroys the socket. */
  | { kind: 'drop' }
  /** A 200 that is not the protocol: `body` as sent, broken JSON by default. */
  | { kind: 'garbage'; body?: string };

export interface RecordedEmbeddingsRequest {
  headers: IncomingHttpHeaders;
  /** The parsed JSON body. */
  body: { model?: unknown; input?: unknown; encoding_format?: unknown; [key: string]: unknown };
}

export interface FakeEmbeddingsOptions {
  /** The key the fake expects (Bearer); unset, it takes any request, keyed or not. */
  apiKey?: string;
  /** Length of the default vectors (256). */
  dimensions?: number;
  /** A text's raw vector (not normalised: the client does that); the hashed features by default. */
  vectorize?: (text: string) => number[];
  /**
   * Keep every request in `requests` (the default, for the suites). A benchmark's fake serves
   * thousands a minute and must not grow: it passes false and counts them with `onRequest`.
   */
  keepRequests?: boolean;
  /** Called with every request whose body parsed, kept or not, before it is answered. */
  onRequest?: (request: RecordedEmbeddingsRequest) => void;
  /** Answers plain numbers even when base64 is asked for, as Ollama does. */
  numbersOnly?: boolean;
}

export interface FakeEmbeddingsServer {
  /** EMBEDDINGS_BASE_URL (ends in /v1). */
  baseUrl: string;
  requests: RecordedEmbeddingsRequest[];
  /** Requests received, recorded or not. */
  received: number;
  /** Behaviours of the next requests, in order; afterwards `fallback`. */
  queue: EmbeddingsBehaviour[];
  fallback: EmbeddingsBehaviour;
  /** Requests the client gave up on before the fake answered (hangs). */
  abandoned: number;
  close(): Promise<void>;
}

/** OpenAI's own cap on inputs per request. */
const MAX_INPUTS = 2048;
/** Words a stop list leaves out: they are in nearly every sentence, so they would pull all texts together. */
const STOP_WORDS = new Set(
  'a an and are as at be but by for from had has have he her his i in is it its me my of on or our she so that the their them then there they this to was we were with you your'.split(
    ' ',
  ),
);
/** A shared word counts as much as three shared trigrams: whole words weigh more than pieces of them. */
const STEM_WEIGHT = 1;
const TRIGRAM_WEIGHT = 1 / 3;

/** 32-bit FNV-1a, then murmur3's finaliser so the high bit (the sign) mixes as well as the low ones. */
function hash(feature: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < feature.length; i += 1) {
    h ^= feature.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A crude stem: plural, past and -ing endings off, so "lanterns" and "lantern" share one feature. */
function stem(word: string): string {
  for (const suffix of ['ing', 'ed', 'es', 's'])
    if (word.length > suffix.length + 2 && word.endsWith(suffix)) return word.slice(0, -suffix.length);
  return word;
}

/**
 * A hashed bag of features of `text`, `dimensions` long, not normalised: each lower-cased word
 * outside the stop list adds its stem and its character trigrams ("#la", "lan", …, "rn#"), each to
 * one bucket with a sign from its hash. Shared words or pieces of words make two texts close; it
 * knows nothing of meaning. A text with no such word (only stop words or symbols) is one feature,
 * itself, so that no text is the zero vector (a real model never gives one).
 */
export function hashedFeatureVector(text: string, dimensions: number): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  const add = (feature: string, weight: number) => {
    const h = hash(feature);
    vector[h % dimensions] += h & 0x80000000 ? -weight : weight;
  };
  const words = (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((word) => !STOP_WORDS.has(word));
  for (const word of words) {
    add(`w:${stem(word)}`, STEM_WEIGHT);
    const padded = `#${word}#`;
    for (let i = 0; i + 3 <= padded.length; i += 1) add(`t:${padded.slice(i, i + 3)}`, TRIGRAM_WEIGHT);
  }
  if (words.length === 0) add(`x:${text.trim().toLowerCase()}`, STEM_WEIGHT);
  return vector;
}

/** A plausible token count for `text`: about 1.3 tokens a word, at least one. */
function tokensOf(text: string): number {
  return Math.max(1, Math.ceil((text.match(/\S+/g)?.length ?? 0) * 1.3));
}

/** The 400 OpenAI answers for a request it cannot embed, or the inputs when it can. */
function inputsOf(body: RecordedEmbeddingsRequest['body']): string[] | string {
  if (typeof body.model !== 'string' || !body.model) return 'you must provide a model parameter';
  if (body.encoding_format !== undefined && body.encoding_format !== 'float' && body.encoding_format !== 'base64')
    return "Invalid value for 'encoding_format': expected 'float' or 'base64'.";
  const input = typeof body.input === 'string' ? [body.input] : body.input;
  if (!Array.isArray(input) || input.length === 0 || input.length > MAX_INPUTS)
    return `'$.input' is invalid. Please check the API reference: https://platform.openai.com/docs/api-reference.`;
  if (!input.every((text): text is string => typeof text === 'string' && text.length > 0))
    return `'$.input' is invalid. Please check the API reference: https://platform.openai.com/docs/api-reference.`;
  return input;
}

export async function startFakeEmbeddingsServer(options: FakeEmbeddingsOptions = {}): Promise<FakeEmbeddingsServer> {
  const dimensions = options.dimensions ?? 256;
  const vectorize = options.vectorize ?? ((text: string) => hashedFeatureVector(text, dimensions));
  const fake: FakeEmbeddingsServer = {
    baseUrl: '',
    requests: [],
    received: 0,
    queue: [],
    fallback: { kind: 'ok' },
    abandoned: 0,
    close: async () => {},
  };

  const server = bodyServer(handle, (res, error) => {
    sendError(res, 500, String(error));
  });

  async function handle(req: IncomingMessage, res: ServerResponse, raw: Buffer) {
    const url = (req.url ?? '').split('?')[0];
    if (req.method !== 'POST' || url !== '/v1/embeddings')
      return sendError(res, 404, `Invalid URL (${req.method} ${url})`);
    let body: RecordedEmbeddingsRequest['body'];
    try {
      body = JSON.parse(raw.toString('utf8')) as RecordedEmbeddingsRequest['body'];
    } catch {
      return sendError(res, 400, 'We could not parse the JSON body of your request.');
    }
    fake.received += 1;
    const recorded = { headers: req.headers, body };
    if (options.keepRequests !== false) fake.requests.push(recorded);
    options.onRequest?.(recorded);
    const presented = (req.headers.authorization ?? '').replace(/^Bearer /, '');
    if (options.apiKey !== undefined && presented !== options.apiKey)
      return sendError(
        res,
        401,
        `Incorrect API key provided: ${masked(presented)}. You can find your API key at https://platform.openai.com/account/api-keys.`,
      );
    const inputs = inputsOf(body);
    if (typeof inputs === 'string') return sendError(res, 400, inputs);

    const next = fake.queue.shift() ?? fake.fallback;
    switch (next.kind) {
      case 'status':
        return sendError(res, next.status, next.message ?? 'The server had an error while processing your request.');
      case 'hang':
        res.on('close', () => {
          fake.abandoned += 1;
        });
        return;
      case 'drop':
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100000' });
        res.write('{"object":"list","data":[{"object":"embedding","index":0,"embedding":[0.0123,-0.04');
        await sleep(20);
        res.socket?.destroy();
        return;
      case 'garbage':
        res.writeHead(200, { 'content-type': 'application/json' }).end(next.body ?? '{"object":"list","data":[{"obj');
        return;
      case 'ok': {
        if (next.delayMs) await sleep(next.delayMs);
        const base64 = body.encoding_format === 'base64' && !options.numbersOnly;
        const data = inputs.map((text, index) => {
          const raw = vectorize(text);
          return {
            object: 'embedding' as const,
            index,
            embedding: base64 ? Buffer.from(Float32Array.from(raw).buffer).toString('base64') : raw,
          };
        });
        if (next.shuffle) data.reverse();
        const tokens = inputs.reduce((sum, text) => sum + tokensOf(text), 0);
        const answer: FakeEmbeddingsAnswer = {
          object: 'list',
          data,
          model: body.model as string,
          ...(next.noUsage ? {} : { usage: { prompt_tokens: tokens, total_tokens: tokens } }),
        };
        return json(res, 200, next.edit ? next.edit(answer) : answer);
      }
    }
  }

  const { url } = await listenOnLoopback(server);
  fake.baseUrl = `${url}/v1`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}
