// `npm run bench:stream`: streaming at scale (issue 11, "100 players at once must feel like one").
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
// checkout of the baseline at /tmp/tw-bench-base, with its own node_modules; several as DIR1,DIR2).
// Quick run: npm run bench:stream -- --levels 1,20 --seconds 5 --backends pglite
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
import { copyStory, createPlayers, playTemplateStory, storyShape, type Player } from './lib/players';
import {
  appEnv,
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
  type FakeProvider,
  type Timing,
} from './lib/processes';
import { GOALS_NOTE, goalFor, levelLine, printLevelTable, type LevelRow } from './lib/report';

const { values: args } = parseArgs({
  options: {
    levels: { type: 'string', default: '1,20,100,200' },
    seconds: { type: 'string', default: '20' },
    backends: { type: 'string' },
    words: { type: 'string', default: '150' },
    ttft: { type: 'string', default: '200' },
    'chunk-ms': { type: 'string', default: '5' },
    'story-turns': { type: 'string', default: '0' },
    compare: { type: 'string' },
  },
});
const LEVELS = args.levels.split(',').map(Number);
const SECONDS = Number(args.seconds);
const BACKENDS = (args.backends ?? (pgAdminUrl() ? 'pglite,postgres' : 'pglite')).split(',') as Backend[];
const TIMING: Timing = { ttftMs: Number(args.ttft), words: Number(args.words), chunkMs: Number(args['chunk-ms']) };
const STORY_TURNS = Number(args['story-turns']);
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
const TREES: Tree[] = [{ label: `this tree (${describe(here)})`, dir: here }];
for (const dir of (args.compare ?? '').split(',').filter(Boolean))
  TREES.push({ label: `${dir} (${describe(resolve(dir))})`, dir: resolve(dir) });

const log = (line: string) => console.log(line);
const load = () =>
  loadavg()
    .map((v) => v.toFixed(2))
    .join(' ');

/** Grows every player's story to STORY_TURNS turns; the app is restarted on the grown database. */
async function growStories(
  app: AppProcess,
  tree: Tree,
  store: AppStore,
  fake: FakeProvider,
  players: Player[],
): Promise<AppProcess> {
  const started = performance.now();
  await fake.setTiming(INSTANT);
  const templateId = await playTemplateStory(app.base, 'benchtemplate', STORY_TURNS);
  // Let a memory fold started by the last turns land before the app stops.
  await sleep(2000);
  await fake.setTiming(TIMING);
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
  return startApp(tree.dir, appEnv(fake.baseUrl, store));
}

interface LevelResult {
  direct: LoopSummary;
  app: LoopSummary;
  rss: [number, number, number];
  cpuPerTurnMs: number;
}

async function runLevel(app: AppProcess, fake: FakeProvider, players: Player[], clients: number): Promise<LevelResult> {
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
  const turns = new Array(clients).fill(0);
  const idle = await rssMb(app.child.pid);
  const sampler = sampleRss(app.child.pid, 250);
  const cpuBefore = await cpuMs(app.child.pid);
  const levelStarted = performance.now();
  const loop = await closedLoop(clients, SECONDS, TURN_MS, (client) =>
    streamTurn(targets[client], actionBody((turns[client] += 1))),
  );
  const cpu = (await cpuMs(app.child.pid)) - cpuBefore - idleCpuRate * (performance.now() - levelStarted);
  const peak = Math.max(idle, ...sampler.stop());
  appAgent.destroy();
  const summary = summarise(loop);
  await sleep(2000);
  return { direct, app: summary, rss: [idle, peak, await rssMb(app.child.pid)], cpuPerTurnMs: cpu / summary.turns };
}

log(
  `bench:stream: provider TTFT ${TIMING.ttftMs} ms, ${TIMING.words} words one per chunk every ${TIMING.chunkMs} ms; ${SECONDS} s per level and path; levels ${LEVELS.join(', ')}; backends ${BACKENDS.join(', ')}${STORY_TURNS ? `; stories grown to ${STORY_TURNS} turns` : ''}`,
);
log(`load average at start: ${load()}`);
const fake = await startFakeProvider(TIMING);
const rows: LevelRow[] = [];
const playersNeeded = Math.max(...LEVELS);
try {
  for (const backend of BACKENDS) {
    for (const [index, tree] of TREES.entries()) {
      log(`\n${backend}, ${tree.label}:`);
      const { store, cleanUp } = await openStore(backend, index === 0 ? 'tw_bench_stream' : `tw_bench_stream_${index}`);
      let app: AppProcess | undefined;
      try {
        app = await startApp(tree.dir, appEnv(fake.baseUrl, store));
        await sleep(2000);
        log(`  app RSS idle after start: ${(await rssMb(app.child.pid)).toFixed(0)} MB`);
        const setupStarted = performance.now();
        await fake.setTiming(INSTANT);
        const players = await createPlayers(app.base, playersNeeded, 'benchplayer');
        await fake.setTiming(TIMING);
        log(
          `  ${players.length} players registered with a story each in ${((performance.now() - setupStarted) / 1000).toFixed(1)} s`,
        );
        if (STORY_TURNS > 0) app = await growStories(app, tree, store, fake, players);
        await sleep(2000);
        for (const clients of LEVELS) {
          const { direct, app: through, rss, cpuPerTurnMs } = await runLevel(app, fake, players, clients);
          const row: LevelRow = {
            backend,
            tree: tree.label,
            clients,
            direct,
            app: through,
            rss,
            cpuPerTurnMs,
            goal: goalFor(clients),
          };
          rows.push(row);
          log(levelLine(row));
          for (const error of [...through.firstErrors, ...direct.firstErrors]) log(`    ${error.slice(0, 300)}`);
        }
      } catch (error) {
        log(`  failed: ${String(error)}\n  app output: ${app?.output().slice(-2000) ?? ''}`);
        process.exitCode = 1;
      } finally {
        if (app) await stopProcess(app.child);
        await cleanUp();
      }
      const warnings = app?.output().trim();
      if (warnings)
        log(
          `  app log (last lines):\n${warnings
            .split('\n')
            .slice(-5)
            .map((l) => `    ${l.slice(0, 300)}`)
            .join('\n')}`,
        );
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
log(`load average at end: ${load()}`);
