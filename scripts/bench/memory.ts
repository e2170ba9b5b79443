// `npm run bench:memory`: the server's resident memory when idle, as an operator sees it (VmRSS,
// no forced garbage collection). Each run starts the real server as `npm start` runs it (the
// compiled bundle with the serve script's node flags; --tsx runs server/main.ts through tsx
// instead, --entry FILE another file with plain node), fills its database with --players players
// who each start a story and play two turns (builtin narrator), restarts it, signs one player in
// and plays one turn (the tokenizer and the request path loaded, as after any real use), then
// samples RSS every second for --seconds and prints the median and the highest, with /proc's
// breakdown. --fresh measures the very first start on an empty DATA_DIR instead (initdb included).
// On PostgreSQL (--backend postgres) a database tw_mem_<pid> is created on BENCH_DATABASE_URL or
// TEST_DATABASE_URL and dropped at the end.
// --tsx and --entry get `--max-old-space-size=512` as `npm start` gives the bundle (--heap MB, 0 for
// Node's default); --node-flags '...' adds node flags to any of them (to try a setting).
// Flags: --backend pglite|postgres --runs 3 --seconds 30 --players 20 --fresh --serve-client --tsx --entry FILE --heap 512 --node-flags '...'
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { registerOverHttp } from '../../server/test/spawn-server';
import { freePort } from './lib/ports';
import { serverArgv } from '../build/serve-command.mjs';
import { median } from './lib/stats';

const { values: args } = parseArgs({
  options: {
    backend: { type: 'string', default: 'pglite' },
    runs: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '30' },
    players: { type: 'string', default: '20' },
    fresh: { type: 'boolean', default: false },
    'serve-client': { type: 'boolean', default: false },
    entry: { type: 'string' },
    heap: { type: 'string', default: '512' },
    tsx: { type: 'boolean', default: false },
    'node-flags': { type: 'string', default: '' },
  },
});
const root = resolve(new URL('../..', import.meta.url).pathname);
const adminUrl =
  process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

async function status(pid: number): Promise<Record<string, number>> {
  const text = await readFile(`/proc/${pid}/status`, 'utf8');
  const rollup = await readFile(`/proc/${pid}/smaps_rollup`, 'utf8');
  const kb = (source: string, key: string) =>
    Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(source)?.[1] ?? 0) / 1024;
  return {
    rss: kb(text, 'VmRSS'),
    peak: kb(text, 'VmHWM'),
    anonymous: kb(rollup, 'Anonymous'),
    file: kb(rollup, 'Pss_File'),
  };
}

interface Server {
  child: ChildProcess;
  base: string;
}

async function startServer(env: NodeJS.ProcessEnv): Promise<Server> {
  const port = await freePort();
  const heap = Number(args.heap) > 0 ? [`--max-old-space-size=${args.heap}`] : [];
  const extra = args['node-flags'].split(/\s+/).filter(Boolean);
  const argv = args.entry
    ? [...heap, ...extra, args.entry]
    : args.tsx
      ? [...heap, ...extra, '--import', 'tsx', 'server/main.ts']
      : [...extra, ...serverArgv(root)];
  const child = spawn(process.execPath, argv, {
    cwd: root,
    env: { ...env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  child.stderr?.on('data', (chunk) => (errors = (errors + chunk).slice(-4000)));
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i += 1) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}: ${errors}`);
    if (i > 1200) throw new Error('the server was not ready after 120 s');
    if (
      await fetch(`${base}/readyz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return { child, base };
    await sleep(100);
  }
}

async function stopServer(server: Server): Promise<void> {
  const exited = new Promise((done) => server.child.once('exit', done));
  server.child.kill('SIGTERM');
  await exited;
}

const json = (cookie: string) => ({ 'content-type': 'application/json', cookie });

async function play(base: string, cookie: string, storyId: number, text: string): Promise<void> {
  const res = await fetch(`${base}/api/story/${storyId}/continue`, {
    method: 'POST',
    headers: json(cookie),
    body: JSON.stringify({ message: text }),
  });
  if (res.status !== 200) throw new Error(`turn failed: ${res.status} ${await res.text()}`);
}

async function fill(base: string, players: number): Promise<void> {
  for (let i = 0; i < players; i += 1) {
    const cookie = await registerOverHttp(base, `memory${i}`, 'benchmark-password');
    const story = await (
      await fetch(`${base}/api/story/start`, {
        method: 'POST',
        headers: json(cookie),
        body: JSON.stringify({ prompt: `A cartographer maps a moving island, chart ${i}` }),
      })
    ).json();
    for (let turn = 1; turn <= 2; turn += 1)
      await play(base, cookie, story.storyId, `I follow the coast, day ${turn}.`);
  }
}

async function oneRun(run: number): Promise<Record<string, number>> {
  const dataDir = await mkdtemp(join(tmpdir(), 'tw-bench-memory-'));
  const database = `tw_mem_${process.pid}_${run}`;
  let databaseUrl = '';
  if (args.backend === 'postgres') {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${database}`);
    await admin.end();
    const url = new URL(adminUrl);
    url.pathname = `/${database}`;
    databaseUrl = url.toString();
  }
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    SERVE_CLIENT: String(args['serve-client']),
    LOG_LEVEL: 'warn',
    LLM_PROVIDER: 'builtin',
    BUILTIN_NARRATOR_WORD_DELAY_MS: '0',
    REGISTER_MAX_PER_HOUR: '1000000',
    CAPTCHA_MAX_PER_MINUTE: '1000000',
  };
  try {
    if (!args.fresh) {
      const filling = await startServer(env);
      await fill(filling.base, Number(args.players));
      await stopServer(filling);
    }
    const server = await startServer(env);
    try {
      if (!args.fresh) {
        const login = await fetch(`${server.base}/api/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: 'memory0', password: 'benchmark-password' }),
        });
        const cookie = login.headers
          .getSetCookie()
          .find((c) => c.startsWith('tw_session='))!
          .split(';')[0];
        await play(server.base, cookie, 1, 'I climb the lighthouse.');
      }
      const samples: number[] = [];
      for (let s = 0; s < Number(args.seconds); s += 1) {
        await sleep(1000);
        samples.push((await status(server.child.pid!)).rss);
      }
      const last = await status(server.child.pid!);
      return {
        median: median(samples),
        max: Math.max(...samples),
        peak: last.peak,
        anonymous: last.anonymous,
        file: last.file,
      };
    } finally {
      await stopServer(server);
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
    if (databaseUrl) {
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      await admin.end();
    }
  }
}

const what = `${args.backend}${args.fresh ? ', first start on an empty DATA_DIR' : `, ${args.players} players`}, ${args['serve-client'] ? 'serving the built client' : 'SERVE_CLIENT=false'}, ${
  args.entry || args.tsx
    ? `${args.entry ?? 'node --import tsx server/main.ts'}, heap limit ${Number(args.heap) > 0 ? `${args.heap} MB` : "Node's default"}`
    : `node ${serverArgv(root).join(' ')} (as npm start)`
}${args['node-flags'] ? `, with ${args['node-flags']}` : ''}`;
console.log(`bench:memory: ${what}; RSS sampled every second for ${args.seconds} s`);
const results: Array<Record<string, number>> = [];
for (let run = 1; run <= Number(args.runs); run += 1) {
  const r = await oneRun(run);
  results.push(r);
  const mb = (v: number) => `${v.toFixed(0)} MB`;
  console.log(
    `run ${run}: idle RSS median ${mb(r.median)}, max ${mb(r.max)}; peak since start ${mb(r.peak)}; anonymous ${mb(r.anonymous)}, file-backed ${mb(r.file)}`,
  );
}
console.log(
  `idle RSS over ${results.length} runs: median ${median(results.map((r) => r.median)).toFixed(0)} MB, max ${Math.max(...results.map((r) => r.max)).toFixed(0)} MB`,
);
