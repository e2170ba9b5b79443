// `npm run bench:reads`: public shared-story reads over real HTTP on loopback. Starts the real
// server (as `npm start` runs it, on a fresh PGlite DATA_DIR, SERVE_CLIENT off) as a child process, makes a
// player and a 10-turn story with the builtin narrator and shares it, then in one run measures,
// with the same closed-loop load (50 keep-alive connections, 10 s each after a 2 s warm-up):
//   - a bare Fastify route in a separate process answering the same bytes from memory (the ceiling),
//   - GET /api/shared/{id}: plain (as the bare route), with Accept-Encoding: br (as browsers ask),
//     and with If-None-Match (the 304 of a revisit),
//   - GET /api/captcha (its limit counted off the database; each question is still one insert),
//   - GET /healthz (the app's plugins and hooks around an empty handler).
// The shared-read and captcha limits are raised out of the way through their env variables. Prints
// req/s, p50/p99 latency and the ratio to the bare route; nothing is asserted.
//   --connections N --duration S --warmup S --turns N
//   --rounds N       measure every target N times, in turn, and report each one's median round
//                    (other work on the machine then weighs on all targets alike)
//   --log-level L    the app's LOG_LEVEL (default info, as deployed)
//   --redis URL      count the limits in Redis (REDIS_URL) instead of in the process
//   --server-dir D   run the server of another checkout (e.g. the code before a change)
//   --only LIST      measure only these targets besides the bare route (comma-separated: shared,
//                    shared-br, shared-304, captcha, healthz), e.g. to profile one of them
// BENCH_CPU_PROF=DIR profiles the app (a V8 CPU profile written there when it stops).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, openSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { registerOverHttp } from '../../server/test/spawn-server';
import { runLoad, type LoadResult } from './reads-load';
import { freePort } from './lib/ports';
import { cpuMs } from './lib/processes';
import { serverArgv } from '../build/serve-command.mjs';

const { values: flags } = parseArgs({
  options: {
    connections: { type: 'string', default: '50' },
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '2' },
    rounds: { type: 'string', default: '1' },
    turns: { type: 'string', default: '10' },
    'log-level': { type: 'string', default: 'info' },
    redis: { type: 'string' },
    'server-dir': { type: 'string' },
    only: { type: 'string' },
  },
});
const CONNECTIONS = Number(flags.connections);
const DURATION_MS = Number(flags.duration) * 1000;
const WARMUP_MS = Number(flags.warmup) * 1000;
const TURNS = Number(flags.turns);
const ROUNDS = Number(flags.rounds);
const HOST = '127.0.0.1';
const A_LOT = '1000000000';

interface Child {
  process: ChildProcess;
  port: number;
}

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(url)).ok;
  } catch {
    return false;
  }
}

/**
 * Starts a node process whose output goes to a file (so this process spends nothing reading logs)
 * and waits until it prints its ready line or, given `port`, until its /healthz answers.
 */
async function startProcess(
  args: string[],
  env: Record<string, string>,
  cwd: string,
  logFile: string,
  port?: number,
): Promise<Child> {
  const out = openSync(logFile, 'w');
  const child = spawn(process.execPath, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', out, out] });
  closeSync(out);
  let exited: number | null = null;
  child.on('exit', (code) => (exited = code ?? -1));
  for (let waited = 0; waited < 90_000; waited += 100) {
    if (port !== undefined && (await answers(`http://${HOST}:${port}/healthz`))) return { process: child, port };
    const log = await readFile(logFile, 'utf8');
    const ready = /ready on http:\/\/localhost:(\d+)/.exec(log);
    if (ready && port === undefined) return { process: child, port: Number(ready[1]) };
    if (exited !== null) throw new Error(`${args.join(' ')} exited with ${exited}:\n${log.slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`${args.join(' ')} did not start in 90 s`);
}

async function stopProcess(child: Child): Promise<void> {
  if (child.process.exitCode !== null) return;
  const exited = new Promise((r) => child.process.once('exit', r));
  child.process.kill('SIGTERM');
  await exited;
}

async function call(base: string, cookie: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      cookie,
      accept: 'application/json',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return JSON.parse(text);
}

/** A player, a story of `turns` turns from the builtin narrator, shared: answers the share id. */
async function sharedStory(base: string): Promise<string> {
  const cookie = await registerOverHttp(base, `reader${randomBytes(3).toString('hex')}`, 'benchmark-password');
  const { storyId } = await call(base, cookie, 'POST', '/api/story/start', {
    prompt: 'A lighthouse keeper finds a letter from the future washed up in a bottle',
  });
  const actions = [
    'I open the letter',
    'I climb to the lamp room',
    'I signal the passing ship',
    'I row out to the reef',
    'I read the letter again',
  ];
  for (let turn = 1; turn < TURNS; turn += 1)
    await call(base, cookie, 'POST', `/api/story/${storyId}/continue`, { message: actions[turn % actions.length] });
  return (await call(base, cookie, 'POST', `/api/story/${storyId}/share`, { title: 'The Letter in the Bottle' }))
    .shareId;
}

interface Target {
  /** What --only calls it (the bare route has none: it is always measured). */
  key?: string;
  label: string;
  port: number;
  /** The answering server's process, whose CPU time per request is reported. */
  pid: number | undefined;
  path: string;
  expect: number[];
  headers?: Record<string, string>;
}

type Measured = LoadResult & { cpuUsPerRequest: number };

async function measure(target: Target): Promise<Measured> {
  const load = {
    host: HOST,
    port: target.port,
    path: target.path,
    headers: target.headers,
    connections: CONNECTIONS,
    expect: target.expect,
  };
  await runLoad({ ...load, durationMs: WARMUP_MS });
  const cpuBefore = await cpuMs(target.pid);
  const result = await runLoad({ ...load, durationMs: DURATION_MS });
  // The server's own CPU (all its threads, user + system) per answer: what the load generator and
  // other work on the machine disturb least, so it tells a change apart where req/s is noisy.
  const cpuUsPerRequest = (((await cpuMs(target.pid)) - cpuBefore) * 1000) / Math.max(1, result.requests);
  process.stdout.write(
    `  ${target.label}: ${Math.round(result.requestsPerSecond)} req/s, p99 ${result.p99Ms.toFixed(2)} ms, ${cpuUsPerRequest.toFixed(1)} µs CPU/request\n`,
  );
  return { ...result, cpuUsPerRequest };
}

/** Each target's median round by throughput (its own latencies with it). */
async function measureAll(targets: Target[]): Promise<Array<[string, Measured]>> {
  const results = targets.map(() => [] as Measured[]);
  for (let round = 1; round <= ROUNDS; round += 1) {
    if (ROUNDS > 1) console.log(`round ${round} of ${ROUNDS}`);
    for (const [index, target] of targets.entries()) results[index].push(await measure(target));
  }
  return targets.map((target, index) => {
    const sorted = [...results[index]].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond);
    return [target.label, sorted[Math.floor((sorted.length - 1) / 2)]];
  });
}

function report(rows: Array<[string, Measured]>): void {
  const bare = rows[0][1].requestsPerSecond;
  const pad = (text: string, width: number) => text.padStart(width);
  console.log(
    `\n${'target'.padEnd(40)}${pad('req/s', 10)}${pad('p50 ms', 9)}${pad('p99 ms', 9)}${pad('max ms', 9)}${pad('vs bare', 9)}${pad('CPU µs/req', 12)}${pad('errors', 8)}`,
  );
  for (const [label, r] of rows) {
    console.log(
      `${label.padEnd(40)}${pad(Math.round(r.requestsPerSecond).toLocaleString('en-US'), 10)}${pad(r.p50Ms.toFixed(2), 9)}${pad(r.p99Ms.toFixed(2), 9)}${pad(r.maxMs.toFixed(1), 9)}${pad(`${Math.round((100 * r.requestsPerSecond) / bare)}%`, 9)}${pad(r.cpuUsPerRequest.toFixed(1), 12)}${pad(String(r.errors), 8)}`,
    );
  }
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'tw-bench-reads-'));
  const serverDir = resolve(flags['server-dir'] ?? '.');
  const children: Child[] = [];
  try {
    const appPort = await freePort();
    // BENCH_CPU_PROF=DIR writes the app's V8 CPU profile there when it stops (where a read goes).
    const profile = process.env.BENCH_CPU_PROF
      ? ['--cpu-prof', `--cpu-prof-dir=${resolve(process.env.BENCH_CPU_PROF)}`]
      : [];
    const app = await startProcess(
      [...profile, ...serverArgv(serverDir)],
      {
        PORT: String(appPort),
        HOST,
        DATA_DIR: join(dir, 'data'),
        DATABASE_URL: '',
        SERVE_CLIENT: 'false',
        LOG_LEVEL: flags['log-level'],
        LLM_PROVIDER: 'builtin',
        BUILTIN_NARRATOR_WORD_DELAY_MS: '0',
        SHARED_READS_PER_MINUTE: A_LOT,
        CAPTCHA_MAX_PER_MINUTE: A_LOT,
        ...(flags.redis
          ? { REDIS_URL: flags.redis, REDIS_KEY_PREFIX: `tw-bench-${randomBytes(4).toString('hex')}:` }
          : {}),
      },
      serverDir,
      join(dir, 'app.log'),
      appPort,
    );
    children.push(app);
    const base = `http://${HOST}:${app.port}`;
    const shareId = await sharedStory(base);
    const first = await fetch(`${base}/api/shared/${shareId}`);
    const body = Buffer.from(await first.arrayBuffer());
    const etag = first.headers.get('etag') ?? '';
    await writeFile(join(dir, 'shared.json'), body);
    const bare = await startProcess(
      ['--import', 'tsx', resolve('scripts/bench/reads-bare.ts'), join(dir, 'shared.json')],
      {},
      process.cwd(),
      join(dir, 'bare.log'),
    );
    children.push(bare);

    console.log(
      `bench:reads: ${CONNECTIONS} connections, ${DURATION_MS / 1000} s each after ${WARMUP_MS / 1000} s warm-up, ${ROUNDS} round(s); ${cpus().length} CPUs, Node ${process.version}; ` +
        `app LOG_LEVEL=${flags['log-level']}, limits ${flags.redis ? 'in Redis' : 'in process'}, server ${serverDir}`,
    );
    console.log(`shared story: ${TURNS} turns, ${body.length} bytes of JSON, ETag ${etag || 'none'}`);
    const shared = `/api/shared/${shareId}`;
    const targets: Target[] = [
      {
        label: 'bare Fastify, same bytes from memory',
        port: bare.port,
        pid: bare.process.pid,
        path: '/shared',
        expect: [200],
      },
      {
        key: 'shared',
        label: 'GET /api/shared/{id}',
        port: app.port,
        pid: app.process.pid,
        path: shared,
        expect: [200],
      },
      {
        key: 'shared-br',
        label: 'GET /api/shared/{id}, Accept-Encoding: br',
        port: app.port,
        pid: app.process.pid,
        path: shared,
        expect: [200],
        headers: { 'accept-encoding': 'br' },
      },
      {
        key: 'shared-304',
        label: 'GET /api/shared/{id}, If-None-Match: 304',
        port: app.port,
        pid: app.process.pid,
        path: shared,
        expect: [304],
        headers: { 'if-none-match': etag },
      },
      {
        key: 'captcha',
        label: 'GET /api/captcha',
        port: app.port,
        pid: app.process.pid,
        path: '/api/captcha',
        expect: [200],
      },
      { key: 'healthz', label: 'GET /healthz', port: app.port, pid: app.process.pid, path: '/healthz', expect: [200] },
    ];
    const only = flags.only?.split(',').map((key) => key.trim());
    report(await measureAll(targets.filter((target) => !target.key || !only || only.includes(target.key))));
  } finally {
    for (const child of children.reverse()) await stopProcess(child);
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
