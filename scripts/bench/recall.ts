// `npm run bench:recall`: does the narrator remember? Judged by what the model was sent, read from
// the fake provider's log, never by what a fake model answered.
//
// Quality: the real server (server/main.ts through tsx, on an embedded PGlite data dir) plays a
// --turns story against the OpenAI-compatible fake at each --contexts window, along each of the
// --paths (see RecallPath): the baseline with recall off (LLM_RECALL_TOKENS=0: the prompt as it was
// before the memory bank), full text at the default budget, and full text fused with vectors from
// the local embeddings fake, meaning-blind or reading other words as their things. Facts are planted
// in the early turns, a quarter renamed midway, the things named again later without their values
// (lib/recall-story.ts); then each fact is probed by naming only the thing, again by another word for
// it, and by a phrase for it. The fake answers each summary with prose and the story bible's facts
// of the turns it was sent (found by the builtin narrator's rules, as a model asked for them would
// list them). Prints recall of planted facts, renamed facts carrying the new value (and the old one
// sent only as older: in a passage of a turn before the rename, or as the value a bible fact
// replaced), alias and paraphrase recall, memory tokens per turn (bible facts and recalled
// passages), and embedding calls per turn.
// Timing: in this process, a --timing-turns story written straight through the repositories and
// indexed, on PGlite and (with BENCH_DATABASE_URL or TEST_DATABASE_URL) PostgreSQL; then
// --probes turn prompts are built as the turn service builds them (domains/story/turn-prompt.ts),
// timing the recall (query, ranking rows, texts) and the assembly; by full text, then hybrid (every
// passage embedded, each probe's action embedded by the local fake over loopback, 1,536 dimensions).
// Nothing is asserted.
// Flags: --turns 200 --facts 20 --contexts 4096,8192 --paths baseline,fulltext,hybrid,knowing
// --timing-turns 1000 --probes 100 --seed 26 --recall-tokens N --no-facts --skip-quality --skip-timing
import { rm } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { computeBudget, JOINER } from '../../server/ai/llm/context';
import { factsSection } from '../../server/ai/llm/summary-answer';
import { loadTokenCounter } from '../../server/ai/llm/tokenizer';
import { loadConfig } from '../../server/kernel/config';
import { contentText, startFakeLlmServer, type RecordedRequest } from '../../server/test/fake-llm-server';
import { listedFacts } from '../../server/test/fake-summaries';
import { stopServer } from '../../server/test/spawn-server';
import { proseWriter } from '../../server/test/varied-prose';
import { hashedFeatureVector, startFakeEmbeddingsServer } from '../../server/test/fake-embeddings-server';
import { judgeProbe, knowingVectors, paraphraseProbe, probeAction, recallPlan } from './lib/recall-story';
import { timeRecall } from './lib/recall-timing';
import { signedInPoster, startNarratedServer } from './lib/narrated-server';
import { maxOf, percentile } from './lib/stats';

const { values: args } = parseArgs({
  options: {
    turns: { type: 'string', default: '200' },
    facts: { type: 'string', default: '20' },
    contexts: { type: 'string', default: '4096,8192' },
    'timing-turns': { type: 'string', default: '1000' },
    probes: { type: 'string', default: '100' },
    seed: { type: 'string', default: '26' },
    'skip-quality': { type: 'boolean', default: false },
    'skip-timing': { type: 'boolean', default: false },
    /** The fake lists no facts with its summaries (a model that ignores the request): passages alone. */
    'no-facts': { type: 'boolean', default: false },
    /** The memory budget of the runs beside the baseline: the server's default (LLM_RECALL_TOKENS) unless given. */
    'recall-tokens': { type: 'string' },
    /** The recall paths run at each window (see RecallPath). */
    paths: { type: 'string', default: 'baseline,fulltext,hybrid,knowing' },
  },
});
const RECALL_TOKENS = Number(args['recall-tokens'] ?? loadConfig({}).llm.recallTokens);
const TURNS = Number(args.turns);
const SEED = Number(args.seed);
const PREMISE = 'A travelling courier carries letters between the river towns of the marsh country';
const RECALLED = 'Recalled from earlier in the story';
const FACT = 'Story bible:';
const count = await loadTokenCounter();

/**
 * How a run recalls: not at all (the baseline), by full text, or fused with vectors from the local
 * embeddings fake: its meaning-blind hashed features ('hybrid'), or those plus a strong feature for
 * each thing a text names by any of its words ('knowing', lib/recall-story.ts: a stand-in for a model
 * that knows a mount is a horse, to tell what fusion does when the vectors are right).
 */
type RecallPath = 'baseline' | 'fulltext' | 'hybrid' | 'knowing';
const PATHS = args.paths.split(',') as RecallPath[];
/** text-embedding-3-small's width. */
const EMBEDDING_DIMENSIONS = 1536;

interface QualityRun {
  context: number;
  path: RecallPath;
  recallTokens: number;
  recall: number;
  renamedNew: number;
  renamedOldSent: number;
  renamedOldDated: number;
  alias: number;
  paraphrase: number;
  /** Embedding calls over the run's turns (batches of passages and queries). */
  embeddingCalls: number;
  recalledTokens: number[];
  promptTokens: number[];
  seconds: number;
}

const lastUserText = (request: RecordedRequest) => contentText(request.body.messages.at(-1)?.content);
const promptText = (request: RecordedRequest) => request.body.messages.map((m) => contentText(m.content)).join(JOINER);
/** The tokens of the bible's facts and the recalled passages in a turn's last user message. */
const recalledTokensOf = (request: RecordedRequest) =>
  lastUserText(request)
    .split(JOINER)
    .filter((part) => part.startsWith(RECALLED) || part.startsWith(FACT))
    .reduce((sum, part) => sum + count(part), 0);

async function qualityRun(context: number, path: RecallPath): Promise<QualityRun> {
  const started = performance.now();
  const recallTokens = path === 'baseline' ? 0 : RECALL_TOKENS;
  const plan = recallPlan(SEED, TURNS, Number(args.facts));
  const embeddings =
    path === 'hybrid' || path === 'knowing'
      ? await startFakeEmbeddingsServer({
          keepRequests: false,
          vectorize:
            path === 'knowing'
              ? knowingVectors(plan.facts, EMBEDDING_DIMENSIONS)
              : (text) => hashedFeatureVector(text, EMBEDDING_DIMENSIONS),
        })
      : null;
  const writer = proseWriter(SEED + 2);
  const fake = await startFakeLlmServer({ apiKey: 'sk-bench' });
  fake.fallback = (request) => {
    const system = contentText(request.body.messages[0]?.content);
    if (!system.startsWith('You maintain the memory')) return { kind: 'ok', text: writer.reply() };
    const listed = args['no-facts'] ? factsSection([]) : listedFacts(contentText(request.body.messages[1]?.content));
    return { kind: 'ok', text: `${writer.reply(4)}\n\n${listed}` };
  };
  const dataDir = `/tmp/tw-bench-recall-${process.pid}-${context}-${path}`;
  const { server, base } = await startNarratedServer(fake.baseUrl, dataDir, {
    LLM_CONTEXT_TOKENS: String(context),
    LLM_RECALL_TOKENS: String(recallTokens),
    ...(embeddings
      ? { EMBEDDINGS_PROVIDER: 'openai', EMBEDDINGS_BASE_URL: embeddings.baseUrl, EMBEDDINGS_MODEL: 'bench-embed' }
      : {}),
  });
  try {
    const post = await signedInPoster(base, `recall${context}${path}`);
    const { storyId } = await post('/api/story/start', { prompt: PREMISE });
    const turnRequests: RecordedRequest[] = [];
    const play = async (action: string) => {
      if (process.env.BENCH_TRACE) process.stderr.write(`turn: ${action}\n`);
      await post(`/api/story/${storyId}/continue`, { message: action });
      const request = fake.requests.findLast((r) => lastUserText(r).endsWith(action))!;
      turnRequests.push(request);
      return request;
    };
    for (let turn = 1; turn <= TURNS; turn += 1) {
      await play(plan.actions[turn]);
      if (turn % 50 === 0) process.stderr.write(`  ${context}/${recallTokens}: turn ${turn}\n`);
    }
    /** What the prompt of the probe `action` held of fact i. */
    const judge = async (i: number, action: string) =>
      judgeProbe(promptText(await play(action)), plan.facts[i], plan.renamedAt[i]);
    const direct = [];
    for (let i = 0; i < plan.facts.length; i += 1)
      direct.push({ fact: plan.facts[i], ...(await judge(i, probeAction(plan.facts[i].thing))) });
    const aliases = [];
    for (let i = 0; i < plan.facts.length; i += 1) aliases.push(await judge(i, probeAction(plan.facts[i].alias)));
    if (process.env.BENCH_TRACE)
      process.stderr.write(`aliases: ${JSON.stringify(aliases.map((a, i) => [plan.facts[i].alias, a.found]))}\n`);
    const paraphrases = [];
    for (let i = 0; i < plan.facts.length; i += 1)
      paraphrases.push(await judge(i, paraphraseProbe(plan.facts[i].paraphrase)));
    const renamed = direct.filter((d) => d.fact.renamed);
    type Key = 'found' | 'oldSent' | 'oldDated';
    const share = (list: Array<Partial<Record<Key, boolean>>>, key: Key) =>
      list.filter((r) => r[key]).length / Math.max(1, list.length);
    return {
      context,
      path,
      recallTokens,
      recall: share(direct, 'found'),
      renamedNew: share(renamed, 'found'),
      renamedOldSent: share(renamed, 'oldSent'),
      renamedOldDated: share(renamed, 'oldDated'),
      alias: share(aliases, 'found'),
      paraphrase: share(paraphrases, 'found'),
      embeddingCalls: embeddings?.received ?? 0,
      recalledTokens: turnRequests.map(recalledTokensOf),
      promptTokens: turnRequests.map((r) => count(promptText(r))),
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    await stopServer(server.child);
    await fake.close();
    await embeddings?.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

const pct = (v: number) => `${(v * 100).toFixed(0)}%`;
if (!args['skip-quality']) {
  console.log(
    `\nbench:recall quality: a ${TURNS}-turn story, ${args.facts} facts planted in turns 2-40, a quarter renamed`,
  );
  console.log('from turn', Math.floor(TURNS / 2), '; each probed by its own word, another word, and a phrase for it.');
  console.log(
    'Paths: baseline = LLM_RECALL_TOKENS=0 (no memory bank: the prompt as before it); fulltext = BM25 and the story bible;',
  );
  console.log(
    'hybrid = fulltext fused with vectors of the local embeddings fake (hashed word and trigram features: it knows no meaning);',
  );
  console.log(
    'knowing = hybrid whose fake also gives each thing, named by any word or phrase, a strong feature of its own (what fusion does when vectors are right). Read from the fake provider log.\n',
  );
  console.log(
    'window  path      recall  planted  renamed→new  old also sent  old dated older  alias  phrase  memory tok/turn mean/p95/max  prompt tok p50  embed calls/turn  run',
  );
  for (const context of args.contexts.split(',').map(Number)) {
    for (const path of PATHS) {
      const r = await qualityRun(context, path);
      const mean = r.recalledTokens.reduce((a, b) => a + b, 0) / r.recalledTokens.length;
      console.log(
        `${String(context).padEnd(7)} ${path.padEnd(9)} ${String(r.recallTokens).padEnd(7)} ${pct(r.recall).padEnd(8)} ${pct(r.renamedNew).padEnd(12)} ${pct(r.renamedOldSent).padEnd(14)} ${pct(r.renamedOldDated).padEnd(16)} ${pct(r.alias).padEnd(6)} ${pct(r.paraphrase).padEnd(7)} ${`${mean.toFixed(0)}/${percentile(r.recalledTokens, 95)}/${maxOf(r.recalledTokens)}`.padEnd(28)} ${String(percentile(r.promptTokens, 50)).padEnd(15)} ${(r.embeddingCalls / r.recalledTokens.length).toFixed(2).padEnd(17)} ${r.seconds.toFixed(0)} s`,
      );
    }
  }
  console.log(
    `\nbudget at 4096: ${JSON.stringify(computeBudget(4096, 500))}, at 8192: ${JSON.stringify(computeBudget(8192, 500))}`,
  );
}

if (!args['skip-timing']) {
  const postgresUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  console.log(
    `\nbench:recall timing: a ${args['timing-turns']}-turn story, ${args.probes} turn prompts built (recall, then assembly), ms`,
  );
  console.log(
    "hybrid: every passage embedded (1,536 dimensions), each probe's action embedded by the local fake over loopback, in this process.",
  );
  console.log(
    'database    path      recall p50  recall p95  assemble p50  assemble p95  both p95  built p50  built p95  passages  hits p50  near p50',
  );
  const backends: Array<'pglite' | 'postgres'> = postgresUrl ? ['pglite', 'postgres'] : ['pglite'];
  const embeddings = await startFakeEmbeddingsServer({ dimensions: EMBEDDING_DIMENSIONS, keepRequests: false });
  try {
    for (const backend of backends)
      for (const path of ['fulltext', 'hybrid'] as const) {
        const t = await timeRecall({
          backend,
          postgresUrl,
          turns: Number(args['timing-turns']),
          probes: Number(args.probes),
          seed: SEED,
          count,
          embeddingsUrl: path === 'hybrid' ? embeddings.baseUrl : undefined,
        });
        const f = (v: number) => v.toFixed(1);
        console.log(
          `${backend.padEnd(11)} ${path.padEnd(9)} ${f(percentile(t.recall, 50)).padEnd(11)} ${f(percentile(t.recall, 95)).padEnd(11)} ${f(percentile(t.assemble, 50)).padEnd(13)} ${f(percentile(t.assemble, 95)).padEnd(13)} ${f(percentile(t.both, 95)).padEnd(9)} ${f(percentile(t.built, 50)).padEnd(10)} ${f(percentile(t.built, 95)).padEnd(10)} ${String(t.passages).padEnd(9)} ${String(percentile(t.hits, 50)).padEnd(9)} ${percentile(t.near, 50)}`,
        );
      }
  } finally {
    await embeddings.close();
  }
}
