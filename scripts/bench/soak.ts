// `npm run bench:soak`: 200 players streaming turns for 10 minutes, with the same fake
// provider, app process and load generator as bench:stream (scripts/bench/lib). On PGlite by
// default (`--backend postgres` uses a database tw_bench_soak created and dropped here, on
// TEST_DATABASE_URL). First the players stream from the provider directly for --direct-seconds
// (the baseline), then they play through POST /api/story/{id}/continue with SSE for --minutes,
// the app's RSS sampled every 10 s and printed as a series. Then the app is stopped and four
// checks print PASS or FAIL (the exit code is 1 if any fails):
//   1. no errors (non-200 answers, `error` events, streams without `done`, timeouts);
//   2. narrator replies stored in the players' stories (counted in the database) = `done` events
//      received (the openings plus every soak turn);
//   3. RSS at the end within 10 % of RSS after warm-up (--warmup-seconds, 60): at most 10 % above it
//      (a fall is not a leak);
//   4. p99 added TTFT (app p99 minus the direct baseline's p99) within --p99-goal (by default
//      the goal for that many players: 135 ms at 200).
// Flags: --minutes 10 --players 200 --backend pglite|postgres --direct-seconds 20
// --warmup-seconds 60 --p99-goal MS --ttft 200 --words 150 --chunk-ms 5.
// Quick run: npm run bench:soak -- --minutes 1 --players 20 --warmup-seconds 20
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
  type TurnResult,
} from './lib/load';
import { percentile } from './lib/stats';
import { createPlayers, storedReplies } from './lib/players';
import {
  appEnv,
  BENCH_API_KEY,
  BENCH_MODEL,
  cpuMs,
  openStore,
  rssMb,
  startApp,
  startFakeProvider,
  stopProcess,
  type AppProcess,
  type Backend,
  type Timing,
} from './lib/processes';
import { formatMs, goalFor } from './lib/report';

const { values: args } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    players: { type: 'string', default: '200' },
    backend: { type: 'string', default: 'pglite' },
    'direct-seconds': { type: 'string', default: '20' },
    'warmup-seconds': { type: 'string', default: '60' },
    'p99-goal': { type: 'string' },
    words: { type: 'string', default: '150' },
    ttft: { type: 'string', default: '200' },
    'chunk-ms': { type: 'string', default: '5' },
  },
});
const MINUTES = Number(args.minutes);
const PLAYERS = Number(args.players);
const BACKEND = args.backend as Backend;
const DIRECT_SECONDS = Number(args['direct-seconds']);
const WARMUP_SECONDS = Number(args['warmup-seconds']);
const P99_GOAL = Number(args['p99-goal'] ?? goalFor(PLAYERS).addedP99);
const TIMING: Timing = { ttftMs: Number(args.ttft), words: Number(args.words), chunkMs: Number(args['chunk-ms']) };
const TURN_MS = TIMING.ttftMs + TIMING.words * TIMING.chunkMs;
const SAMPLE_MS = 10_000;
const RSS_TOLERANCE = 0.1;

const log = (line: string) => console.log(line);
const load = () =>
  loadavg()
    .map((v) => v.toFixed(2))
    .join(' ');
const ms = (v: number) => formatMs(v, 0);

log(
  `bench:soak: ${PLAYERS} players for ${MINUTES} min on ${BACKEND}; provider TTFT ${TIMING.ttftMs} ms, ${TIMING.words} words one per chunk every ${TIMING.chunkMs} ms`,
);
log(`load average at start: ${load()}`);
const fake = await startFakeProvider(TIMING);
const { store, cleanUp } = await openStore(BACKEND, 'tw_bench_soak');
const checks: Array<{ name: string; pass: boolean; detail: string }> = [];
let app: AppProcess | undefined;
try {
  app = await startApp(resolve(new URL('../..', import.meta.url).pathname), appEnv(fake.baseUrl, store));
  const { base, child } = app;
  const pid = child.pid;
  await fake.setTiming({ ttftMs: 0, chunkMs: 0 });
  const players = await createPlayers(base, PLAYERS, 'soakplayer');
  await fake.setTiming(TIMING);
  log(`${players.length} players registered, one story each (${players.length} opening replies acknowledged)`);

  const directAgent = keepAliveAgent();
  const provider = directTarget(fake.baseUrl, BENCH_API_KEY, directAgent);
  let directTurns = 0;
  // The app idles meanwhile: its CPU rate now is taken off the soak's CPU per turn.
  const idleCpuBefore = await cpuMs(pid);
  const idleStarted = performance.now();
  const direct = summarise(
    await closedLoop(PLAYERS, DIRECT_SECONDS, TURN_MS, () =>
      streamTurn(provider, directBody(BENCH_MODEL, (directTurns += 1))),
    ),
  );
  const idleCpuRate = ((await cpuMs(pid)) - idleCpuBefore) / (performance.now() - idleStarted);
  directAgent.destroy();
  log(
    `direct baseline (${DIRECT_SECONDS} s): TTFT p50 ${ms(direct.ttftP50)}, p99 ${ms(direct.ttftP99)}; ${direct.turnsPerSecond.toFixed(1)} turns/s; ${direct.errors} errors`,
  );
  await sleep(2000);

  const agent = keepAliveAgent();
  const targets = players.map((p) => appTarget(base, p.storyId, p.cookie, agent));
  const turns = new Array(PLAYERS).fill(0);
  const results: TurnResult[] = [];
  const series: Array<{ second: number; rss: number }> = [{ second: 0, rss: await rssMb(pid) }];
  log(
    `soak: RSS every ${SAMPLE_MS / 1000} s (t, RSS, turns done, turns/s and the app's CPU per turn in the last interval, errors so far)`,
  );
  log(`  t=   0 s  RSS ${series[0].rss.toFixed(0)} MB`);
  const started = performance.now();
  const cpuBefore = await cpuMs(pid);
  let lastCount = 0;
  let lastCpu = cpuBefore;
  const sampler = setInterval(() => {
    void Promise.all([rssMb(pid), cpuMs(pid)]).then(([rss, cpuNow]) => {
      const second = Math.round((performance.now() - started) / 1000);
      series.push({ second, rss });
      const errors = results.filter((r) => !r.ok).length;
      const done = results.length - lastCount;
      const rate = done / (SAMPLE_MS / 1000);
      // The app's CPU per turn in this interval: a cost that grows with the run shows here first.
      const cpuPerTurn = (cpuNow - lastCpu) / Math.max(1, done);
      lastCount = results.length;
      lastCpu = cpuNow;
      log(
        `  t=${String(second).padStart(4)} s  RSS ${rss.toFixed(0)} MB  turns ${results.length}  ${rate.toFixed(1)}/s  CPU ${cpuPerTurn.toFixed(1)} ms/turn  errors ${errors}`,
      );
    });
  }, SAMPLE_MS);
  const loop = await closedLoop(
    PLAYERS,
    MINUTES * 60,
    TURN_MS,
    (client) => streamTurn(targets[client], actionBody((turns[client] += 1))),
    results,
  );
  const cpu = (await cpuMs(pid)) - cpuBefore - idleCpuRate * (performance.now() - started);
  clearInterval(sampler);
  agent.destroy();
  const soak = summarise(loop);
  log(
    `soak: ${soak.turns} turns; TTFT p50 ${ms(soak.ttftP50)}, p99 ${ms(soak.ttftP99)} (added ${ms(soak.ttftP50 - direct.ttftP50)} / ${ms(soak.ttftP99 - direct.ttftP99)}); ` +
      `${soak.turnsPerSecond.toFixed(1)} turns/s (${((soak.turnsPerSecond / direct.turnsPerSecond) * 100).toFixed(0)} % of direct); app CPU ${(cpu / soak.turns).toFixed(1)} ms/turn above idle`,
  );
  // Drift: the first and the last minute of the run side by side.
  const window = (from: number, to: number) =>
    loop.results
      .filter((r) => r.ok && r.startedAt - started >= from && r.startedAt - started < to)
      .map((r) => r.ttftMs);
  const first = window(0, 60_000);
  const last = window(MINUTES * 60_000 - 60_000, MINUTES * 60_000);
  log(`  TTFT p99 in the first minute ${ms(percentile(first, 99))}, in the last minute ${ms(percentile(last, 99))}`);
  const minutes = Array.from({ length: Math.ceil(MINUTES) }, (_, m) => window(m * 60_000, (m + 1) * 60_000));
  log(
    `  TTFT p50 / p99 by minute (ms): ${minutes.map((w) => `${percentile(w, 50).toFixed(0)}/${percentile(w, 99).toFixed(0)}`).join('  ')}`,
  );
  for (const error of soak.firstErrors) log(`  error: ${error.slice(0, 300)}`);

  await stopProcess(child);
  const acknowledged = players.length + soak.turns;
  const stored = await storedReplies(
    store,
    players.map((p) => p.storyId),
  );
  const warm = series.find((s) => s.second >= WARMUP_SECONDS) ?? series[series.length - 1];
  const end = series[series.length - 1];
  const addedP99 = soak.ttftP99 - direct.ttftP99;
  checks.push(
    { name: 'no errors', pass: soak.errors === 0, detail: `${soak.errors} failed turns of ${loop.results.length}` },
    {
      name: 'turns stored = turns acknowledged',
      pass: stored === acknowledged,
      detail: `${stored} replies stored, ${acknowledged} done events (${players.length} openings + ${soak.turns} turns)`,
    },
    {
      name: `RSS at the end within ${RSS_TOLERANCE * 100} % of RSS after warm-up`,
      pass: end.rss <= warm.rss * (1 + RSS_TOLERANCE),
      detail: `${warm.rss.toFixed(0)} MB at ${warm.second} s, ${end.rss.toFixed(0)} MB at ${end.second} s (${(((end.rss - warm.rss) / warm.rss) * 100).toFixed(1)} %)`,
    },
    {
      name: `p99 added TTFT <= ${P99_GOAL} ms`,
      pass: addedP99 <= P99_GOAL,
      detail: `app p99 ${ms(soak.ttftP99)} - direct p99 ${ms(direct.ttftP99)} = ${ms(addedP99)}`,
    },
  );
  log(`RSS series (s:MB): ${series.map((s) => `${s.second}:${s.rss.toFixed(0)}`).join(' ')}`);
} catch (error) {
  checks.push({
    name: 'run completed',
    pass: false,
    detail: `${String(error)}; app output: ${app?.output().slice(-2000) ?? ''}`,
  });
} finally {
  if (app) await stopProcess(app.child);
  await stopProcess(fake.child);
  await cleanUp();
}
for (const check of checks) log(`${check.pass ? 'PASS' : 'FAIL'}  ${check.name}: ${check.detail}`);
log(`load average at end: ${load()}`);
if (checks.some((c) => !c.pass)) process.exitCode = 1;
