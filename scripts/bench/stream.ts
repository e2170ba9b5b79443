// `npm run bench:stream`: streaming at scale ("100 players at once must feel like one").
// A fake OpenAI-compatible provider runs in its own process (scripts/bench/lib/fake-openai.ts: TTFT
// 200 ms, 150 words, one word per chunk every 5 ms), the real app (server/main.ts, LOG_LEVEL=warn,
// LLM_PROVIDER=openai pointed at the fake, a fresh DATA_DIR or a fresh PostgreSQL database) in
// another, and the load generator here (node:http, keep-alive, a byte-counting SSE reader).
// For each backend and each level C: C closed-loop clients stream from the provider directly for
// --seconds, then C players (registered and with a story each before timing) play turns through
// POST /api/story/{id}/continue with SSE for --seconds. Per level it prints TTFT p50/p99 (request
// start to the first content delta) directly and through the app, the difference ("added"), turns/s
// both ways and their ratio, errors, and the app's RSS (idle before, peak during, after), against
// the issue's goals. Nothing is asserted.
// Flags: --levels 1,20,100,200  --seconds 20  --backends pglite,postgres (postgres only with
// TEST_DATABASE_URL; its database tw_bench_stream is created and dropped here)  --words 150
// --ttft 200  --chunk-ms 5  --story-turns N (grow every story to N turns first: one template story
// is played with an instant provider, then copied into every player's story with SQL while the
// app is stopped)  --compare DIR (run the same levels against DIR's server/main.ts too, e.g. a
// checkout of the baseline at /tmp/tw-bench-base, with its own node_modules; several as DIR1,DIR2)
// --embeddings (off by default: the time the turn's query embedding adds to the first word; the
// fake provider serves embeddings too, 1536 dimensions, and each level runs twice, each run on
// grown stories of its own, the app restarted between: without the EMBEDDINGS_* settings, then with them; printed
// side by side with their difference and the embedding calls a turn; needs folded memory, so
// --story-turns defaults to 60 with it and the run stops if the template story has no vectors; see
// lib/stream-embeddings.ts)  --embed-ms 0 (the fake's delay before each embedding answer: 0 is
// loopback, what our code costs; a real provider adds its own round trip)  --embed-cache-mb N
// (EMBEDDINGS_CACHE_MB for the app; its default otherwise)  --catalogue (this tree runs with a
// NARRATORS_FILE of two narrators on the fake, half the stories on each; compared trees keep LLM_*;
// see lib/stream-catalogue.ts).
// Grown stories get the template's memory bank too (passages, term statistics, vectors, facts; lib/memory-copy.ts).
// Quick run: npm run bench:stream -- --levels 1,20 --seconds 5 --backends pglite
// With embeddings: npm run bench:stream -- --levels 1,20 --seconds 5 --backends pglite --embeddings
import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import {
  actionBody,
  appTarget,
  closedLoop,
  directBody,
  directTarget,
  keepAliveAgent,
  sleep,
  streamTurn,
  summarise,
  type LoopSummary,
} from './lib/load';
import { describeMemory } from './lib/memory-copy';
import { copiedMemory, copyStory, createPlayers, playTemplateStory, storyShape, type Player } from './lib/players';
import {
  appEnv,
  appLogTail,
  BENCH_API_KEY,
  BENCH_MODEL,
  cpuMs,
  openStore,
  pgAdminUrl,
  rssMb,
  sampleRss,
  startApp,
  startFakeProvider,
  stopProcess,
  type AppProcess,
  type AppStore,
  type Backend,
  type EmbeddingCounts,
  type FakeProvider,
  type Timing,
} from './lib/processes';
import { GOALS_NOTE, goalFor, levelLine, printLevelTable, type LevelRow } from './lib/report';
import { catalogueEnv, splitNarrators } from './lib/stream-catalogue';
import {
  callsBetween,
  EMBEDDINGS_NOTE,
  embeddingCounts,
  embeddingsEnv,
  embeddingsSettled,
  pairLine,
  printEmbeddingsTable,
  warmTtft,
  warmUp,
  cacheLine,
  defaultCacheMb,
  type EmbeddingsPair,
} from './lib/stream-embeddings';

const { values: args } = parseArgs({
  options: {
    levels: { type: 'string', default: '1,20,100,200' },
    seconds: { type: 'string', default: '20' },
    backends: { type: 'string' },
    words: { type: 'string', default: '150' },
    ttft: { type: 'string', default: '200' },
    'chunk-ms': { type: 'string', default: '5' },
    'story-turns': { type: 'string' },
    compare: { type: 'string' },
    embeddings: { type: 'boolean', default: false },
    'embed-ms': { type: 'string', default: '0' },
    'embed-cache-mb': { type: 'string' },
    catalogue: { type: 'boolean', default: false },
  },
});
const LEVELS = args.levels.split(',').map(Number);
const SECONDS = Number(args.seconds);
const BACKENDS = (args.backends ?? (pgAdminUrl() ? 'pglite,postgres' : 'pglite')).split(',') as Backend[];
const TIMING: Timing = { ttftMs: Number(args.ttft), words: Number(args.words), chunkMs: Number(args['chunk-ms']) };
const EMBEDDINGS = args.embeddings;
const CATALOGUE = args.catalogue;
const EMBED_MS = Number(args['embed-ms']);
const EMBED_CACHE_MB = args['embed-cache-mb'] ? Number(args['embed-cache-mb']) : undefined;
// The query is embedded only on a story with folded memory and vectors: stories must be grown.
const STORY_TURNS = Number(args['story-turns'] ?? (EMBEDDINGS ? 60 : 0));
if (EMBEDDINGS && STORY_TURNS <= 0) throw new Error('--embeddings needs --story-turns N (a story with folded memory)');
const TURN_MS = TIMING.ttftMs + TIMING.words * TIMING.chunkMs;
const INSTANT: Partial<Timing> = { ttftMs: 0, chunkMs: 0 };
if (BACKENDS.includes('postgres') && !pgAdminUrl()) throw new Error('--backends postgres needs TEST_DATABASE_URL');

interface Tree {
  label: string;
  dir: string;
}
const describe = (dir: string) => {
  try {
    const head = execFileSync('git', ['-C', dir, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    const dirty =
      execFileSync('git', ['-C', dir, 'status', '--porcelain', '--untracked-files=no'], { encoding: 'utf8' }).trim() !==
      '';
    return `${head}${dirty ? '+changes' : ''}`;
  } catch {
    return dir;
  }
};
const here = resolve(new URL('../..', import.meta.url).pathname);
const TREES: Tree[] = [{ label: `this tree (${describe(here)})${CATALOGUE ? ', two narrators' : ''}`, dir: here }];
for (const dir of (args.compare ?? '').split(',').filter(Boolean))
  TREES.push({ label: `${dir} (${describe(resolve(dir))})`, dir: resolve(dir) });

const log = (line: string) => console.log(line);
const load = () =>
  loadavg()
    .map((v) => v.toFixed(2))
    .join(' ');

/** Grows every player's story to STORY_TURNS turns; the app is restarted on the grown database with `env`. */
async function growStories(
  app: AppProcess,
  tree: Tree,
  store: AppStore,
  fake: FakeProvider,
  players: Player[],
  env: NodeJS.ProcessEnv,
): Promise<AppProcess> {
  const started = performance.now();
  await fake.setTiming(INSTANT);
  if (EMBEDDINGS) await fake.setEmbedDelay(0);
  const templateId = await playTemplateStory(app.base, 'benchtemplate', STORY_TURNS);
  // Let a memory fold started by the last turns land before the app stops, and its passages' embedding.
  await sleep(2000);
  if (EMBEDDINGS) await embeddingsSettled(fake);
  await fake.setTiming(TIMING);
  if (EMBEDDINGS) await fake.setEmbedDelay(EMBED_MS);
  await stopProcess(app.child);
  await copyStory(
    store,
    templateId,
    players.map((p) => p.storyId),
  );
  const shape = await storyShape(store, players[0].storyId);
  log(
    `  stories grown to ${STORY_TURNS} turns in ${((performance.now() - started) / 1000).toFixed(1)} s: ${shape.messages} messages each, memory (${shape.memoryWords} words) folds the first ${shape.folded}`,
  );
  const memory = await copiedMemory(store, templateId, players[0].storyId);
  log(`  memory bank of each story: ${describeMemory(memory.copy)}`);
  if (memory.differences.length > 0)
    throw new Error(`a copy's memory bank differs from the template's: ${memory.differences.join(', ')}`);
  if (EMBEDDINGS && (shape.folded === 0 || memory.copy.vectors === 0))
    throw new Error(
      `--embeddings: the template story has ${shape.folded === 0 ? 'no folded memory' : 'no vectors'} after ${STORY_TURNS} turns, so no turn would embed its query; raise --story-turns`,
    );
  if (EMBEDDINGS)
    log(cacheLine(memory.copy.vectors, memory.copy.vectorBytes, EMBED_CACHE_MB ?? defaultCacheMb(), players.length));
  if (EMBEDDINGS && memory.copy.vectors < memory.copy.withTerms)
    log(
      `  (only ${memory.copy.vectors} of ${memory.copy.withTerms} passages have vectors: the rest are found by full text alone)`,
    );
  return startApp(tree.dir, env);
}

interface LevelResult {
  direct: LoopSummary;
  app: LoopSummary;
  rss: [number, number, number];
  cpuPerTurnMs: number;
  /** The untimed first turns (--embeddings only), TTFT p50/p99. */
  warm?: [number, number];
}

/**
 * Numbers the actions of every turn of the run: each action text differs, as a player's do, so the
 * app's query-embedding cache (256 texts, keyed by text) never answers for a round trip.
 */
let actions = 0;

async function runLevel(
  app: AppProcess,
  fake: FakeProvider,
  players: Player[],
  clients: number,
  /** --embeddings: one untimed turn a player first, then `beforeTiming` (to read counts the timed turns start from). */
  warm?: { beforeTiming?: () => Promise<void> },
): Promise<LevelResult> {
  const directAgent = keepAliveAgent();
  const provider = directTarget(fake.baseUrl, BENCH_API_KEY, directAgent);
  let directTurns = 0;
  // The app idles while the provider is measured directly: its CPU then is the idle rate
  // (timers, housekeeping, PGlite's WAL sweep) that is taken off the level's CPU per turn.
  const idleCpuBefore = await cpuMs(app.child.pid);
  const idleStarted = performance.now();
  const direct = summarise(
    await closedLoop(clients, SECONDS, TURN_MS, () =>
      streamTurn(provider, directBody(BENCH_MODEL, (directTurns += 1))),
    ),
  );
  const idleCpuRate = ((await cpuMs(app.child.pid)) - idleCpuBefore) / (performance.now() - idleStarted);
  directAgent.destroy();
  await sleep(1000);

  const appAgent = keepAliveAgent();
  const targets = players.slice(0, clients).map((p) => appTarget(app.base, p.storyId, p.cookie, appAgent));
  let warmed: [number, number] | undefined;
  if (warm) {
    warmed = warmTtft(await warmUp(targets, TURN_MS, () => actionBody((actions += 1))));
    await sleep(1000);
    await warm.beforeTiming?.();
  }
  const idle = await rssMb(app.child.pid);
  const sampler = sampleRss(app.child.pid, 250);
  const cpuBefore = await cpuMs(app.child.pid);
  const levelStarted = performance.now();
  const loop = await closedLoop(clients, SECONDS, TURN_MS, (client) =>
    streamTurn(targets[client], actionBody((actions += 1))),
  );
  const cpu = (await cpuMs(app.child.pid)) - cpuBefore - idleCpuRate * (performance.now() - levelStarted);
  const peak = Math.max(idle, ...sampler.stop());
  appAgent.destroy();
  const summary = summarise(loop);
  await sleep(2000);
  return {
    direct,
    app: summary,
    rss: [idle, peak, await rssMb(app.child.pid)],
    cpuPerTurnMs: cpu / summary.turns,
    warm: warmed,
  };
}

log(
  `bench:stream: provider TTFT ${TIMING.ttftMs} ms, ${TIMING.words} words one per chunk every ${TIMING.chunkMs} ms; ${SECONDS} s per level and path; levels ${LEVELS.join(', ')}; backends ${BACKENDS.join(', ')}${STORY_TURNS ? `; stories grown to ${STORY_TURNS} turns` : ''}` +
    (EMBEDDINGS
      ? `; embeddings off and on per level (fake answers after ${EMBED_MS} ms, 1536 dimensions${EMBED_CACHE_MB ? `, EMBEDDINGS_CACHE_MB ${EMBED_CACHE_MB}` : ''})`
      : ''),
);
log(`load average at start: ${load()}`);
const fake = await startFakeProvider(TIMING, EMBEDDINGS ? EMBED_MS : undefined);
const rows: LevelRow[] = [];
const pairs: EmbeddingsPair[] = [];
// With embeddings, the runs with them on and off play stories of their own: a story played with
// them off gathers passages without vectors, which the next run with them on would embed first.
const playersNeeded = (EMBEDDINGS ? 2 : 1) * Math.max(...LEVELS);

/** The last lines an app wrote (its warnings and errors), if any. */
const logAppOutput = (app: AppProcess | undefined, label = '') => {
  const tail = app ? appLogTail(app, label) : '';
  if (tail) log(tail);
};

/** Stops `app` (printing what it wrote) and starts the server of `dir` again with `env` on the same database. */
async function restartApp(app: AppProcess, dir: string, env: NodeJS.ProcessEnv, label: string): Promise<AppProcess> {
  await stopProcess(app.child);
  logAppOutput(app, label);
  const next = await startApp(dir, env);
  await sleep(2000);
  return next;
}

/** A level's row, kept for the summary and printed now; `mode` says which run of an --embeddings pair it is. */
function record(
  backend: Backend,
  treeLabel: string,
  clients: number,
  result: LevelResult,
  mode?: 'embeddings off' | 'embeddings on',
): LevelRow {
  const { direct, app: through, rss, cpuPerTurnMs } = result;
  const tree = mode ? `${treeLabel}, ${mode}` : treeLabel;
  const row: LevelRow = { backend, tree, clients, direct, app: through, rss, cpuPerTurnMs, goal: goalFor(clients) };
  rows.push(row);
  log(levelLine(row) + (mode ? ` (${mode})` : ''));
  for (const error of [...through.firstErrors, ...direct.firstErrors]) log(`    ${error.slice(0, 300)}`);
  return row;
}

try {
  for (const backend of BACKENDS) {
    for (const [index, tree] of TREES.entries()) {
      log(`\n${backend}, ${tree.label}:`);
      const { store, cleanUp } = await openStore(backend, index === 0 ? 'tw_bench_stream' : `tw_bench_stream_${index}`);
      const catalogue = CATALOGUE && index === 0 ? catalogueEnv(fake.baseUrl, store.dataDir) : {};
      const envOff = appEnv(fake.baseUrl, store, catalogue);
      const envOn = EMBEDDINGS
        ? appEnv(fake.baseUrl, store, { ...catalogue, ...embeddingsEnv(fake, EMBED_CACHE_MB) })
        : envOff;
      let app: AppProcess | undefined;
      try {
        // With embeddings the template story is played with them on, so that its passages get vectors to copy.
        app = await startApp(tree.dir, envOn);
        await sleep(2000);
        log(`  app RSS idle after start: ${(await rssMb(app.child.pid)).toFixed(0)} MB`);
        const setupStarted = performance.now();
        await fake.setTiming(INSTANT);
        const players = await createPlayers(app.base, playersNeeded, 'benchplayer');
        if (CATALOGUE && index === 0) await splitNarrators(app.base, players);
        await fake.setTiming(TIMING);
        log(
          `  ${players.length} players registered with a story each in ${((performance.now() - setupStarted) / 1000).toFixed(1)} s`,
        );
        if (STORY_TURNS > 0) app = await growStories(app, tree, store, fake, players, envOff);
        await sleep(2000);
        for (const [levelIndex, clients] of LEVELS.entries()) {
          if (!EMBEDDINGS) {
            record(backend, tree.label, clients, await runLevel(app, fake, players, clients));
            continue;
          }
          // Each run on an app just started (the first level's came up after the stories grew), so
          // that neither run inherits the other's caches or heap.
          if (levelIndex > 0) app = await restartApp(app, tree.dir, envOff, ', embeddings on');
          const off = await runLevel(app, fake, players.slice(playersNeeded / 2), clients, {});
          const offRow = record(backend, tree.label, clients, off, 'embeddings off');
          app = await restartApp(app, tree.dir, envOn, ', embeddings off');
          const counts: EmbeddingCounts[] = [];
          const on = await runLevel(app, fake, players, clients, {
            beforeTiming: async () => void counts.push(await embeddingCounts(fake)),
          });
          const calls = callsBetween(counts[0], await embeddingCounts(fake));
          const onRow = record(backend, tree.label, clients, on, 'embeddings on');
          const warm = { off: off.warm ?? [NaN, NaN], on: on.warm ?? [NaN, NaN] };
          const pair: EmbeddingsPair = { tree: tree.label, off: offRow, on: onRow, calls, warm };
          pairs.push(pair);
          log(pairLine(pair));
        }
      } catch (error) {
        log(`  failed: ${String(error)}\n  app output: ${app?.output().slice(-2000) ?? ''}`);
        process.exitCode = 1;
      } finally {
        if (app) await stopProcess(app.child);
        await cleanUp();
      }
      logAppOutput(app);
    }
  }
} finally {
  await stopProcess(fake.child);
}

log('\nSummary');
for (const backend of BACKENDS) {
  log(`\n${backend}:`);
  printLevelTable(
    rows.filter((r) => r.backend === backend),
    log,
    true,
  );
}
log(GOALS_NOTE);
if (EMBEDDINGS) {
  log('\nEmbeddings off and on, side by side:');
  for (const backend of BACKENDS) {
    log(`\n${backend}:`);
    printEmbeddingsTable(
      pairs.filter((p) => p.on.backend === backend),
      log,
    );
  }
  log(EMBEDDINGS_NOTE);
}
log(`load average at end: ${load()}`);
