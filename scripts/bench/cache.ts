// `npm run bench:cache`: how much of each turn's prompt a provider's prompt cache could reuse.
// Provider caches reuse only an unchanged prefix of the request, so for every turn this compares
// the prompt the narrator was sent with the previous turn's: the longest common prefix of the
// serialized request (the system prompt and the messages as the OpenAI-compatible provider sent
// them, JSON, counted in characters) over the turn's own length. Judged by what the fake provider
// was sent, through the real server (server/main.ts through tsx, on an embedded PGlite data dir)
// and its real turn service, never by what a fake model answered.
//
// At each --contexts window it plays one story of --long-turns turns (the fake answers instantly)
// and prints, over its first --turns turns: the mean unchanged-prefix share, its p10, the mean on
// turns whose memory changed (a fold landed since the turn before), memory calls per turn (summary
// requests / turns: folds and compactions); then the prompt's tokens at turns 20 and --long-turns
// (o200k, counted as the context assembler counts them). The fake's summaries are varied prose of
// four fifths of the words the request allows (real models write close to the limit), then an empty
// FACTS section. Nothing is asserted. The passages the memory bank recalls go in the volatile tail
// (up to LLM_RECALL_TOKENS, 200 by default), which the next turn's prompt never repeats: with
// --recall-tokens 0 the figures show what the folds alone leave of the prefix.
// With --note TEXT the story has that author's note, which goes LLM_AUTHORS_NOTE_DEPTH (3) messages
// from the end of every prompt: the figures show what moving it each turn costs the prefix.
// Flags: --turns 80 --long-turns 500 --contexts 8192,4096 --seed 26 --recall-tokens N --note TEXT
// BENCH_TRACE=1 prints each turn's share and the text on either side of where it diverged.
import { rm } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { countPrompt } from '../../server/ai/llm/context';
import { loadTokenCounter } from '../../server/ai/llm/tokenizer';
import { contentText, startFakeLlmServer, type RecordedRequest } from '../../server/test/fake-llm-server';
import { stopServer } from '../../server/test/spawn-server';
import { proseWriter } from '../../server/test/varied-prose';
import { signedInPoster, startNarratedServer } from './lib/narrated-server';
import { maxOf, percentile } from './lib/stats';

const { values: args } = parseArgs({
  options: {
    turns: { type: 'string', default: '80' },
    'long-turns': { type: 'string', default: '500' },
    contexts: { type: 'string', default: '8192,4096' },
    seed: { type: 'string', default: '26' },
    /** LLM_RECALL_TOKENS for the runs: the server's default (200) unless given; 0 turns the memory bank's passages off. */
    'recall-tokens': { type: 'string' },
    /** The story's author's note (none unless given). */
    note: { type: 'string' },
  },
});
const TURNS = Number(args.turns);
const LONG_TURNS = Math.max(TURNS, Number(args['long-turns']));
const SEED = Number(args.seed);
const PREMISE = 'A travelling courier carries letters between the river towns of the marsh country';
const count = await loadTokenCounter();

const isSummary = (request: RecordedRequest) =>
  contentText(request.body.messages[0]?.content).startsWith('You maintain the memory');
const lastUserText = (request: RecordedRequest) => contentText(request.body.messages.at(-1)?.content);
/** The request as the cache sees it: the system prompt and the messages, in order, serialized. */
const serialized = (request: RecordedRequest) =>
  JSON.stringify(request.body.messages.map((m) => ({ role: m.role, content: contentText(m.content) })));
const commonPrefix = (a: string, b: string) => {
  const most = Math.min(a.length, b.length);
  let i = 0;
  while (i < most && a.charCodeAt(i) === b.charCodeAt(i)) i += 1;
  return i;
};
const tokensOf = (request: RecordedRequest) => {
  const [system, ...messages] = request.body.messages.map((m) => ({
    role: m.role as 'user' | 'assistant',
    content: contentText(m.content),
  }));
  return countPrompt(system.content, messages, count);
};

interface Run {
  context: number;
  shares: number[];
  foldShares: number[];
  memoryCalls: number;
  allShares: number[];
  allMemoryCalls: number;
  /** The prompt's tokens at each turn (index 0: turn 1). */
  tokens: number[];
  seconds: number;
}

async function run(context: number): Promise<Run> {
  const started = performance.now();
  const writer = proseWriter(SEED);
  const summaries = proseWriter(SEED + 1);
  const fake = await startFakeLlmServer({ apiKey: 'sk-bench' });
  fake.fallback = (request) => {
    if (!isSummary(request)) return { kind: 'ok', text: writer.reply() };
    const asked = Number(/at most (\d+) words/.exec(lastUserText(request))?.[1] ?? 100);
    const words = summaries
      .reply(40)
      .split(' ')
      .slice(0, Math.max(5, Math.floor(asked * 0.8)));
    return { kind: 'ok', text: `${words.join(' ').replace(/[.?!]?$/, '.')}\n\nFACTS:\n[]` };
  };
  const dataDir = `/tmp/tw-bench-cache-${process.pid}-${context}`;
  const { server, base } = await startNarratedServer(fake.baseUrl, dataDir, {
    LLM_CONTEXT_TOKENS: String(context),
    ...(args['recall-tokens'] === undefined ? {} : { LLM_RECALL_TOKENS: args['recall-tokens'] }),
  });
  try {
    const post = await signedInPoster(base, `cache${context}`);
    const { storyId } = await post('/api/story/start', { prompt: PREMISE });
    if (args.note) await post(`/api/story/${storyId}/memory`, { notes: args.note }, 'PUT');
    // Per turn: the request the narrator was sent, and how many summary requests came before it.
    const turns: Array<{ request: RecordedRequest; summariesBefore: number }> = [];
    for (let turn = 1; turn <= LONG_TURNS; turn += 1) {
      const action = writer.action();
      const summariesBefore = fake.requests.filter(isSummary).length;
      await post(`/api/story/${storyId}/continue`, { message: action });
      const request = fake.requests.findLast((r) => !isSummary(r) && lastUserText(r).endsWith(action))!;
      turns.push({ request, summariesBefore });
      if (turn % 100 === 0) process.stderr.write(`  ${context}: turn ${turn}\n`);
    }
    // Turn i + 2 against turn i + 1, and whether a summary request came between them (its memory changed).
    const shares: number[] = [];
    const folded: boolean[] = [];
    for (let i = 1; i < turns.length; i += 1) {
      const now = serialized(turns[i].request);
      const before = serialized(turns[i - 1].request);
      const at = commonPrefix(before, now);
      shares.push(at / now.length);
      if (process.env.BENCH_TRACE)
        process.stderr.write(
          `turn ${i + 1}: ${(at / now.length).toFixed(2)} of ${now.length}, ${JSON.stringify(before.slice(at - 60, at + 60))} | ${JSON.stringify(now.slice(at - 60, at + 60))}\n`,
        );
      folded.push(turns[i].summariesBefore > turns[i - 1].summariesBefore);
    }
    const summariesThrough = (turn: number) =>
      turn < turns.length ? turns[turn].summariesBefore : fake.requests.filter(isSummary).length;
    const first = shares.slice(0, TURNS - 1);
    return {
      context,
      shares: first,
      foldShares: first.filter((_, i) => folded[i]),
      memoryCalls: summariesThrough(TURNS) / TURNS,
      allShares: shares,
      allMemoryCalls: summariesThrough(LONG_TURNS) / LONG_TURNS,
      tokens: turns.map((t) => tokensOf(t.request)),
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    await stopServer(server.child);
    await fake.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
const f2 = (v: number) => v.toFixed(2);
console.log(
  `\nbench:cache: one story per window, ${LONG_TURNS} turns against the fake OpenAI-compatible provider, LLM_RECALL_TOKENS ${args['recall-tokens'] ?? 'default (200)'}${args.note ? `, an author's note of ${count(args.note)} tokens` : ''}.`,
);
console.log(
  `Unchanged prefix of each turn's request (system + messages, JSON, in characters) vs the turn before, turns 2-${TURNS};`,
);
console.log(`memory calls = summary requests / turns (folds and compactions); prompt tokens (o200k) at turns 20 and`);
console.log(
  `${LONG_TURNS}, their means over turns 11-30 and the last 20, and the largest in turns 21-${TURNS} and in the last ${TURNS - 20}`,
);
console.log(
  `turns: one turn's prompt depends on where it falls in the fold cycle (the verbatim turns grow, then a fold takes most of them).\n`,
);
console.log(
  `window  share mean  p10   fold turns: n, mean  calls/turn | all turns: share mean  calls/turn | tok t20  t${LONG_TURNS}  ratio | mean 11-30  last 20  ratio | max 21-${TURNS}  max last ${TURNS - 20}  ratio | run`,
);
for (const context of args.contexts.split(',').map(Number)) {
  const r = await run(context);
  const t20 = r.tokens[19];
  const tLong = r.tokens[LONG_TURNS - 1];
  const early = maxOf(r.tokens.slice(20, TURNS));
  const late = maxOf(r.tokens.slice(LONG_TURNS - (TURNS - 20)));
  const around20 = mean(r.tokens.slice(10, 30));
  const last20 = mean(r.tokens.slice(LONG_TURNS - 20));
  console.log(
    [
      String(context).padEnd(7),
      f2(mean(r.shares)).padEnd(11),
      f2(percentile(r.shares, 10)).padEnd(5),
      `${r.foldShares.length}, ${f2(mean(r.foldShares))}`.padEnd(20),
      f2(r.memoryCalls).padEnd(10),
      '|',
      ''.padEnd('all turns:'.length),
      f2(mean(r.allShares)).padEnd(11),
      f2(r.allMemoryCalls).padEnd(10),
      '|',
      String(t20).padEnd(7),
      String(tLong).padEnd(String(LONG_TURNS).length + 2),
      f2(tLong / t20).padEnd(5),
      '|',
      around20.toFixed(0).padEnd('mean 11-30'.length),
      last20.toFixed(0).padEnd('last 20'.length),
      f2(last20 / around20).padEnd(5),
      '|',
      String(early).padEnd(`max 21-${TURNS}`.length),
      String(late).padEnd(`max last ${TURNS - 20}`.length),
      f2(late / early).padEnd(5),
      '|',
      `${r.seconds.toFixed(0)} s`,
    ].join(' '),
  );
}
