// The streaming benchmarks' fake OpenAI-compatible provider, run as its own process
// (`node --import tsx scripts/bench/lib/fake-openai.ts [ttftMs] [words] [chunkMs] [apiKey]`) so
// its streaming work competes with neither the app's event loop nor the load generator's. It
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
import { emptyRequestLog, startFakeLlmServer, type Behaviour } from '../../../server/test/fake-llm-server';

interface Timing {
  ttftMs: number;
  words: number;
  chunkMs: number;
}

const [ttftArg, wordsArg, chunkArg, keyArg] = process.argv.slice(2);
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

const fake = await startFakeLlmServer({
  apiKey: keyArg ?? 'sk-bench',
  keepRequests: false,
  controlRoutes: {
    'POST /__bench/config': (body) => Object.assign(timing, JSON.parse(body) as Partial<Timing>),
    'GET /__bench/stats': () => ({ ...fake.stats, timing }),
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

const stop = () => void fake.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
