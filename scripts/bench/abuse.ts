// `npm run bench:abuse`: what one hostile player's request does to everyone else (while
// one player runs any single request of theirs, another visitor's /api/captcha answers in < 100 ms
// p99). The server runs in its own process as `npm start` runs it (the compiled bundle, its node
// flags), on PGlite by default, with the fake OpenAI-compatible provider (lib/fake-openai.ts)
// as its narrator and the builtin painter. A bystander in a third process (lib/bystander.ts)
// asks for a captcha every 20 ms, one at a time, no cookie. For each case (lib/abuse-cases.ts)
// the server is started afresh on the run's data directory (--quick keeps it when it can), the
// case's player registered and its setup done, unwatched; then the hostile work runs while the
// bystander watches. Printed per case: the bystander's p50/p99/max, the server's peak RSS during
// the case (VmHWM, reset at the case's start through /proc/<pid>/clear_refs), its CPU time, the
// case's own time and figures, and the fake provider's request log. First an idle row: the
// bystander alone. Asserts nothing.
//
//   --server-dir DIR   run another checkout's build (before / after); it is built first
//   --only a,b         only these cases (names as printed)
//   --quick            a 2 s idle baseline, smaller setups, fewer repeats, a 10 s deadline, and the
//                      server kept from one case to the next when their settings are the same
//   --backend postgres on PostgreSQL (TEST_DATABASE_URL) instead of PGlite
import { execFileSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { registerOverHttp } from '../../server/test/spawn-server';
import type { AbuseCase, CaseContext } from './lib/abuse-case';
import { CASES } from './lib/abuse-cases';
import {
  httpClient,
  largestRequest,
  memoryMb,
  readFakeLog,
  resetFakeLog,
  resetPeakRss,
  spread,
  startBystander,
  stopOrKill,
  type Spread,
} from './lib/abuse-harness';
import { sleep } from './lib/load';
import {
  appEnv,
  cpuMs,
  openStore,
  startApp,
  startFakeProvider,
  stopProcess,
  type AppProcess,
  type Backend,
  type Timing,
} from './lib/processes';

const { values: args } = parseArgs({
  options: {
    'server-dir': { type: 'string', default: '.' },
    only: { type: 'string' },
    quick: { type: 'boolean', default: false },
    backend: { type: 'string', default: 'pglite' },
  },
});
const SERVER_DIR = resolve(args['server-dir']);
const QUICK = args.quick;
const BYSTANDER_EVERY_MS = 20;
const IDLE_MS = QUICK ? 2_000 : 8_000;
/** How long the bystander's last request may still wait after a case before the server is taken for frozen and killed. */
const FROZEN_AFTER_MS = QUICK ? 3_000 : 10_000;
/** The fake model answers at once unless a case needs it slower (parallel starts). */
const FAST_MODEL: Timing = { ttftMs: 0, words: 150, chunkMs: 0 };
/** Settings of the benchmark itself: the bystander polls 50 captchas a second from one address, and every case registers a player. */
const BENCH_SETTINGS = {
  IMAGE_PROVIDER: 'builtin',
  CAPTCHA_MAX_PER_MINUTE: '1000000',
  REGISTER_MAX_PER_HOUR: '1000000',
};

interface Row {
  name: string;
  bystander: Spread & { requests: number; refused: string };
  rssStartMb: number;
  rssPeakMb: number;
  /** Whether VmHWM could be reset at the case's start (else it is the peak since the server started). */
  peakOfCase: boolean;
  cpuMs: number;
  caseMs: number;
  modelCalls: number;
  /** The largest request the model got: its size and tokens. */
  largestRequest: string;
  figures: string;
  /** How the server ended when that was not a plain stop: killed (frozen), or exited by itself. */
  end: string;
}

const selected: AbuseCase[] = (() => {
  if (!args.only) return CASES;
  const names = args.only.split(',').map((n) => n.trim());
  const unknown = names.filter((n) => !CASES.some((c) => c.name === n));
  if (unknown.length > 0)
    throw new Error(`unknown case ${unknown.join(', ')}; cases: ${CASES.map((c) => c.name).join(', ')}`);
  return CASES.filter((c) => names.includes(c.name));
})();

const IDLE: AbuseCase = {
  name: 'idle (baseline)',
  what: `nothing: the bystander alone for ${IDLE_MS / 1000} s`,
  prepare: async () => async () => {
    await sleep(IDLE_MS);
    return '';
  },
};

function describeServer(): string {
  try {
    const commit = execFileSync('git', ['-C', SERVER_DIR, 'log', '-1', '--format=%h %cd', '--date=short'], {
      encoding: 'utf8',
    }).trim();
    const dirty = execFileSync('git', ['-C', SERVER_DIR, 'status', '--porcelain', '--untracked-files=no'], {
      encoding: 'utf8',
    }).trim()
      ? ' + uncommitted changes'
      : '';
    return `${SERVER_DIR} (${commit}${dirty})`;
  } catch {
    return SERVER_DIR;
  }
}

const fake = await startFakeProvider(FAST_MODEL);
const { store, cleanUp } = await openStore(args.backend as Backend, 'tw_bench_abuse');
const bystander = startBystander();
let players = 0;

/** The server of the last case: kept for the next with --quick when the settings are the same. */
let running: { app: AppProcess; settings: string } | null = null;
const alive = (app: AppProcess) => app.child.exitCode === null && app.child.signalCode === null;

async function serverFor(testCase: AbuseCase): Promise<AppProcess> {
  const settings = JSON.stringify(testCase.env ?? {});
  if (running && QUICK && running.settings === settings && alive(running.app)) return running.app;
  if (running) await stopServer(running.app);
  // After appEnv, which drops USER_MONTHLY_TOKEN_LIMIT: a case may set it.
  const app = await startApp(SERVER_DIR, { ...appEnv(fake.baseUrl, store, BENCH_SETTINGS), ...testCase.env });
  running = { app, settings };
  return app;
}

/** Stops the server; answers how it ended when that was not a plain stop. */
async function stopServer(app: AppProcess): Promise<string> {
  if (running?.app === app) running = null;
  if (!alive(app))
    return `exited by itself (${app.child.exitCode ?? app.child.signalCode}): ${app.output().trim().split('\n').slice(-2).join(' | ').slice(0, 300)}`;
  return (await stopOrKill(app.child, 15_000)) === 'killed' ? 'killed (did not stop in 15 s)' : '';
}

async function stopLastServer(): Promise<void> {
  if (running) await stopServer(running.app);
}

async function runCase(testCase: AbuseCase): Promise<Row> {
  await fake.setTiming({ ...FAST_MODEL, ...testCase.timing });
  const app = await serverFor(testCase);
  const pid = app.child.pid;
  const http = httpClient(app.base);
  const row: Row = {
    name: testCase.name,
    bystander: { ...spread([]), requests: 0, refused: '' },
    rssStartMb: 0,
    rssPeakMb: 0,
    peakOfCase: false,
    cpuMs: 0,
    caseMs: 0,
    modelCalls: 0,
    largestRequest: '',
    figures: '',
    end: '',
  };
  try {
    players += 1;
    const cookie = await registerOverHttp(app.base, `abuse${Date.now() % 1e8}p${players}`, 'benchmark-password');
    const ctx: CaseContext = {
      player: { http, cookie },
      fakeBaseUrl: fake.baseUrl,
      quick: QUICK,
      note: (line) => console.log(`  ${testCase.name}: ${line}`),
    };
    const setupStarted = performance.now();
    const hostile = await testCase.prepare(ctx);
    const setupMs = performance.now() - setupStarted;
    if (setupMs > 1000) console.log(`  ${testCase.name}: setup took ${(setupMs / 1000).toFixed(1)} s`);

    await resetFakeLog(fake.baseUrl);
    row.rssStartMb = (await memoryMb(pid)).now;
    row.peakOfCase = await resetPeakRss(pid);
    const cpuBefore = await cpuMs(pid);
    bystander.start(app.base, BYSTANDER_EVERY_MS);
    const started = performance.now();
    row.figures = await hostile().catch(
      (error: unknown) => `FAILED: ${error instanceof Error ? error.message : String(error)}`,
    );
    row.caseMs = performance.now() - started;
    row.rssPeakMb = (await memoryMb(pid)).peak;
    row.cpuMs = (await cpuMs(pid)) - cpuBefore;

    // A frozen server holds the bystander's request: it is killed so the window can end.
    const window = bystander.stop();
    if ((await Promise.race([window.then(() => 'in'), sleep(FROZEN_AFTER_MS).then(() => 'late')])) === 'late') {
      await stopOrKill(app.child, 0);
      row.end = `killed: still frozen ${FROZEN_AFTER_MS / 1000} s after the case`;
    }
    const seen = await window;
    const refused = Object.entries(seen.statuses).map(([status, n]) => `${status} x${n}`);
    if (seen.errors > 0) refused.push(`failed x${seen.errors} (${seen.firstError})`);
    row.bystander = { ...spread(seen.latenciesMs), requests: seen.requests, refused: refused.join(', ') };
    const log = await readFakeLog(fake.baseUrl);
    row.modelCalls = log.requests;
    row.largestRequest = await largestRequest(log);
  } catch (error) {
    row.figures = `SETUP FAILED: ${error instanceof Error ? error.message : String(error)}`.slice(0, 400);
    await bystander.stop().catch(() => undefined);
  } finally {
    http.close();
    if (!alive(app) || !QUICK) row.end ||= await stopServer(app);
  }
  return row;
}

const f0 = (v: number) => (Number.isFinite(v) ? v.toFixed(0) : '-');
function printTable(rows: Row[]): void {
  console.log(
    '\n| case | bystander p50 / p99 / max ms | bystander requests / slots (not 200) | server RSS start → peak MB | server CPU ms | case ms | model calls (largest request) | case figures |',
  );
  console.log('|---|---|---|---|---|---|---|---|');
  for (const row of rows) {
    const b = row.bystander;
    const rss = `${f0(row.rssStartMb)} → ${f0(row.rssPeakMb)}${row.peakOfCase ? '' : ' (peak since start)'}`;
    const figures = [row.figures, row.end ? `server ${row.end}` : ''].filter(Boolean).join('; ');
    console.log(
      `| ${row.name} | ${f0(b.p50)} / ${f0(b.p99)} / ${f0(b.max)} | ${b.requests} / ${b.n}${b.refused ? ` (${b.refused})` : ''} | ${rss} | ${f0(row.cpuMs)} | ${f0(row.caseMs)} | ` +
        `${row.modelCalls}${row.largestRequest ? ` (${row.largestRequest})` : ''} | ${figures.replaceAll('|', '/')} |`,
    );
  }
}

const benchStarted = performance.now();
const settings = Object.entries(appEnv(fake.baseUrl, store, BENCH_SETTINGS))
  .filter(([key, value]) => process.env[key] !== value && !['DATA_DIR', 'DATABASE_URL', 'LLM_API_KEY'].includes(key))
  .map(([key, value]) => `${key}=${value}`);
const machine = () =>
  `${new Date().toISOString()}; ${cpus().length} cores (${cpus()[0]?.model.trim()}), node ${process.version}, load average ${loadavg()
    .map((v) => v.toFixed(1))
    .join(' ')}; server ${describeServer()}; ${args.backend}${QUICK ? '; quick' : ''}`;
console.log(`bench:abuse ${machine()}`);
console.log(`server settings of the benchmark: ${settings.join(' ')}`);
console.log(
  `bystander: GET /api/captcha every ${BYSTANDER_EVERY_MS} ms, one at a time, no cookie; slots that came due during a slow answer count as the wait a visitor arriving then had`,
);
const rows: Row[] = [];
try {
  for (const testCase of [IDLE, ...selected]) {
    const extra = [
      testCase.env
        ? Object.entries(testCase.env)
            .map(([k, v]) => `${k}=${v}`)
            .join(' ')
        : '',
      testCase.timing ? `model ${JSON.stringify(testCase.timing)}` : '',
    ]
      .filter(Boolean)
      .join('; ');
    console.log(`- ${testCase.name}: ${testCase.what}${extra ? ` [${extra}]` : ''}`);
    const row = await runCase(testCase);
    rows.push(row);
    console.log(
      `  bystander p50/p99/max ${f0(row.bystander.p50)}/${f0(row.bystander.p99)}/${f0(row.bystander.max)} ms over ${row.bystander.requests} requests; case ${f0(row.caseMs)} ms; peak RSS ${f0(row.rssPeakMb)} MB; ${row.figures}${row.end ? `; server ${row.end}` : ''}`,
    );
  }
} finally {
  await stopLastServer();
  bystander.close();
  await stopProcess(fake.child);
  await cleanUp();
}
printTable(rows);
console.log(`\nbench:abuse ended ${machine()}`);
console.log(`whole run ${((performance.now() - benchStarted) / 1000).toFixed(0)} s`);
