// The streaming benchmarks' fake OpenAI-compatible provider, run as its own process
// (`node --import tsx scripts/bench/lib/fake-openai.ts [ttftMs] [words] [chunkMs] [apiKey] [embedMs]`)
// so its streaming work competes with neither the app's event loop nor the load generator's. It
// prints its base URL (ending in /v1) as the first stdout line. It is the API suites' fake
// (server/test/fake-llm-server.ts) with the benchmarks' reply:
// POST /v1/chat/completions with `stream: true` answers after ttftMs a role chunk, then one word per
// chunk every chunkMs on a fixed schedule (the reply, serialised once, written as strings), a
// finish chunk, a usage chunk, then `data: [DONE]`; without it one JSON completion (the app's
// memory-summary and title calls) after ttftMs. POST /__bench/config {ttftMs?, words?, chunkMs?}
// changes the timing for the next requests (setup and story growth run with 0 delays); GET
// /__bench/stats answers the counts. It keeps no request after its response ends, so a 10-minute
// soak does not grow it. GET /__bench/log answers the request log of bench:abuse: how many chat
// requests came (streamed or not), their bytes, and the largest request body whole (one body at
// most is kept, to count its prompt's tokens); POST /__bench/log/reset starts it again.
// Given embedMs (bench:stream --embeddings), it also serves OpenAI's embeddings API on a port of its
// own (server/test/fake-embeddings-server.ts, 1536 dimensions as text-embedding-3-small, the same
// key), printing that base URL as the second stdout line: each answer comes after embedMs (POST
// /__bench/embeddings {delayMs} changes it), and GET /__bench/stats adds the embedding calls counted
// so far, none of them kept.
import { hashedFeatureVector, startFakeEmbeddingsServer } from '../../../server/test/fake-embeddings-server';
import { emptyRequestLog, startFakeLlmServer, type Behaviour } from '../../../server/test/fake-llm-server';

interface Timing {
  ttftMs: number;
  words: number;
  chunkMs: number;
}

const [ttftArg, wordsArg, chunkArg, keyArg, embedArg] = process.argv.slice(2);
const timing: Timing = {
  ttftMs: Number(ttftArg ?? 200),
  words: Number(wordsArg ?? 150),
  chunkMs: Number(chunkArg ?? 5),
};

// Varied prose, not one sentence over and over: the app stores, compresses and counts the tokens of
// these replies, and a repeated sentence would flatter all three.
const PROSE = (
  'The rain drums on the slate roofs of the harbour town while lanterns sway above the wet cobbles and the ' +
  'smell of tar and salt drifts in from the quay where the night watch trades rumours about a ship with black sails'
).split(' ');
const ENDING = ['What', 'do', 'you', 'do?'];
const SUMMARY =
  `${'You crossed the harbour at night, bargained with the harbour master, lost the ledger and found it again in the chapel. '.repeat(20)}`.trim();

/** The reply of `words` words, ending in a question so the app's sentence tidying keeps all of it. */
function reply(words: number): string {
  const body = Array.from({ length: Math.max(0, words - ENDING.length) }, (_, i) => PROSE[i % PROSE.length]);
  return [...body, ...ENDING].slice(-Math.max(1, words)).join(' ');
}

/** text-embedding-3-small's length: the app parses, stores and compares vectors of this size. */
const EMBEDDING_DIMENSIONS = 1536;

/**
 * A dense vector, as a real model answers (every component a full-precision float, about 30 KB of
 * JSON a text at 1536 dimensions, which the app reads on every turn's query): the fake's hashed
 * features (shared words make texts close) plus a smaller pseudo-random part seeded by the text, so
 * the same text always gets the same vector. The sparse features alone would be a few KB of zeros.
 */
function denseVector(text: string): number[] {
  const features = hashedFeatureVector(text, EMBEDDING_DIMENSIONS);
  const norm = Math.hypot(...features) || 1;
  let seed = 2166136261;
  for (let i = 0; i < text.length; i += 1) seed = Math.imul(seed ^ text.charCodeAt(i), 16777619) >>> 0;
  const noiseScale = 0.5 / Math.sqrt(EMBEDDING_DIMENSIONS);
  return features.map((value) => {
    // xorshift32: cheap and deterministic; its quality does not matter here.
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    seed >>>= 0;
    return value / norm + ((seed / 0xffffffff) * 2 - 1) * noiseScale;
  });
}

/** Embedding calls so far: all of them, their inputs, and those of one input (a turn's query, or a lone passage). */
const embeddingStats = { calls: 0, inputs: 0, single: 0, delayMs: Number(embedArg ?? 0) };
const embeddings =
  embedArg === undefined
    ? undefined
    : await startFakeEmbeddingsServer({
        apiKey: keyArg ?? 'sk-bench',
        dimensions: EMBEDDING_DIMENSIONS,
        vectorize: denseVector,
        keepRequests: false,
        onRequest: ({ body }) => {
          const inputs = typeof body.input === 'string' ? 1 : Array.isArray(body.input) ? body.input.length : 0;
          embeddingStats.calls += 1;
          embeddingStats.inputs += inputs;
          if (inputs === 1) embeddingStats.single += 1;
        },
      });
if (embeddings) embeddings.fallback = { kind: 'ok', delayMs: embeddingStats.delayMs };

const fake = await startFakeLlmServer({
  apiKey: keyArg ?? 'sk-bench',
  keepRequests: false,
  controlRoutes: {
    'POST /__bench/config': (body) => Object.assign(timing, JSON.parse(body) as Partial<Timing>),
    'GET /__bench/stats': () => ({ ...fake.stats, timing, ...(embeddings ? { embeddings: embeddingStats } : {}) }),
    'POST /__bench/embeddings': (body) => {
      embeddingStats.delayMs = Number((JSON.parse(body) as { delayMs?: number }).delayMs ?? embeddingStats.delayMs);
      if (embeddings) embeddings.fallback = { kind: 'ok', delayMs: embeddingStats.delayMs };
      return embeddingStats;
    },
    'GET /__bench/log': () => fake.log,
    'POST /__bench/log/reset': () => Object.assign(fake.log, emptyRequestLog()),
  },
});
// Read the timing when a request comes: a config change during a request's wait applies to the next one.
fake.fallback = (request): Behaviour =>
  request.body.stream
    ? {
        kind: 'ok',
        text: reply(timing.words),
        usage: { input: 1500, output: timing.words + 2 },
        ttftMs: timing.ttftMs,
        chunkEveryMs: timing.chunkMs,
      }
    : { kind: 'ok', text: SUMMARY, usage: { input: 1500, output: 300 }, ttftMs: timing.ttftMs };
console.log(fake.baseUrl);
// A second line only when asked for: the benchmarks that read the first line alone are unchanged.
if (embeddings) console.log(embeddings.baseUrl);

const stop = () => void Promise.all([fake.close(), embeddings?.close()]).then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
