// Child processes and databases of the streaming benchmarks (bench:stream, bench:soak): the fake
// provider (scripts/bench/lib/fake-openai.ts), the real app (server/main.ts of this tree or of
// another checkout, e.g. the baseline of --compare) on a fresh DATA_DIR or a PostgreSQL database
// created and dropped here, its resident memory from /proc, and raw SQL on its database while it
// is stopped (growing stories, counting stored replies).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { openDatabase, type Database } from '../../../server/db/client';
import { serverArgv } from '../../build/serve-command.mjs';
import { freePort } from './ports';

export const BENCH_API_KEY = 'sk-bench';
export const BENCH_MODEL = 'bench-model';
const here = new URL('.', import.meta.url).pathname;

export interface Timing {
  ttftMs: number;
  words: number;
  chunkMs: number;
}

/** The fake's embedding calls so far (fake-openai.ts): all, their inputs, and those of one input. */
export interface EmbeddingCounts {
  calls: number;
  inputs: number;
  single: number;
  delayMs: number;
}

export interface FakeProvider {
  child: ChildProcess;
  /** Ends in /v1, as LLM_BASE_URL wants it. */
  baseUrl: string;
  /** Its embeddings API (ends in /v1, as EMBEDDINGS_BASE_URL wants it), when started with embedMs. */
  embeddingsUrl?: string;
  setTiming(timing: Partial<Timing>): Promise<void>;
  /** How long each embedding answer waits from now on. */
  setEmbedDelay(delayMs: number): Promise<void>;
  stats(): Promise<{
    streams: number;
    completions: number;
    active: number;
    rejected: number;
    embeddings?: EmbeddingCounts;
  }>;
}

/** Starts the fake provider process; with `embedMs` it serves embeddings too, answering after that delay. */
export async function startFakeProvider(timing: Timing, embedMs?: number): Promise<FakeProvider> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(here, 'fake-openai.ts'),
      String(timing.ttftMs),
      String(timing.words),
      String(timing.chunkMs),
      BENCH_API_KEY,
      ...(embedMs === undefined ? [] : [String(embedMs)]),
    ],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const baseUrl = String((await lines.next()).value ?? '').trim();
  if (!baseUrl.startsWith('http')) throw new Error(`the fake provider did not start: ${baseUrl}`);
  const embeddingsUrl = embedMs === undefined ? undefined : String((await lines.next()).value ?? '').trim();
  if (embeddingsUrl !== undefined && !embeddingsUrl.startsWith('http'))
    throw new Error(`the fake embeddings server did not start: ${embeddingsUrl}`);
  const origin = new URL(baseUrl).origin;
  const post = async (path: string, body: object) => {
    const res = await fetch(`${origin}${path}`, { method: 'POST', body: JSON.stringify(body) });
    if (!res.ok) throw new Error(`fake provider ${path}: ${res.status}`);
  };
  return {
    child,
    baseUrl,
    embeddingsUrl,
    setTiming: (next) => post('/__bench/config', next),
    setEmbedDelay: (delayMs) => post('/__bench/embeddings', { delayMs }),
    stats: async () => (await fetch(`${origin}/__bench/stats`)).json(),
  };
}

export type Backend = 'pglite' | 'postgres';

/** Where an app keeps its data: a DATA_DIR (PGlite) or a PostgreSQL URL. */
export interface AppStore {
  backend: Backend;
  dataDir: string;
  databaseUrl: string;
}

export interface AppProcess {
  child: ChildProcess;
  base: string;
  port: number;
  /** The last lines the app wrote (its warnings and errors at LOG_LEVEL=warn). */
  output(): string;
}

/** What every benchmarked app gets: the fake narrator, limits a load test does not trip, no allowance. */
export function appEnv(fakeBaseUrl: string, store: AppStore, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOST: '127.0.0.1',
    DATA_DIR: store.dataDir,
    DATABASE_URL: store.databaseUrl,
    SERVE_CLIENT: 'false',
    LOG_LEVEL: 'warn',
    LLM_PROVIDER: 'openai',
    LLM_BASE_URL: fakeBaseUrl,
    LLM_API_KEY: BENCH_API_KEY,
    LLM_MODEL: BENCH_MODEL,
    // Every simulated player registers from 127.0.0.1 (production allows 30 an hour per address).
    REGISTER_MAX_PER_HOUR: '1000000',
    CAPTCHA_MAX_PER_MINUTE: '1000000',
    // A bench player plays far faster than a person: hundreds of turns a minute against USER_TURNS_PER_HOUR's 300 an hour.
    USER_TURNS_PER_HOUR: '1000000',
    USER_SIDE_CALLS_PER_HOUR: '1000000',
    ...extra,
  };
  delete env.USER_MONTHLY_TOKEN_LIMIT;
  return env;
}

/** Starts the server of the checkout in `dir` as its `npm start` runs it (serve-command.mjs) and waits until /readyz answers. */
export async function startApp(dir: string, env: NodeJS.ProcessEnv): Promise<AppProcess> {
  const port = await freePort();
  // BENCH_CPU_PROF=DIR writes the app's V8 CPU profile there when it stops (to see where turns go).
  const profile = process.env.BENCH_CPU_PROF
    ? ['--cpu-prof', `--cpu-prof-dir=${resolve(process.env.BENCH_CPU_PROF)}`]
    : [];

  // Memory and CPU are measured as `npm start` runs the server: compiled, with its node flags.
  // BENCH_NODE_FLAGS='--trace-gc …' adds node flags after the app's own (so they win), before its script.
  const argv = serverArgv(dir);
  if (process.env.BENCH_NODE_FLAGS)
    argv.splice(argv.length - 1, 0, ...process.env.BENCH_NODE_FLAGS.trim().split(/\s+/));
  const child = spawn(process.execPath, [...profile, ...argv], {
    cwd: dir,
    env: { ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const log = process.env.BENCH_APP_LOG ? createWriteStream(process.env.BENCH_APP_LOG, { flags: 'a' }) : undefined; // the app's whole output
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
    log?.write(chunk);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  let exited: number | null | undefined;
  child.on('exit', (code) => {
    exited = code;
  });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (exited !== undefined) throw new Error(`the app in ${dir} exited with ${exited}: ${output}`);
    if (Date.now() > deadline) throw new Error(`the app in ${dir} was not ready after 120 s: ${output}`);
    try {
      if ((await fetch(`${base}/readyz`)).ok) break;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { child, base, port, output: () => output };
}

/** The last lines an app wrote, indented under a heading, or '' if it wrote nothing. */
export function appLogTail(app: AppProcess, label = ''): string {
  const lines = app.output().trim();
  if (!lines) return '';
  const tail = lines
    .split('\n')
    .slice(-5)
    .map((l) => `    ${l.slice(0, 300)}`);
  return `  app log${label} (last lines):\n${tail.join('\n')}`;
}

export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** A process's resident set in MB (VmRSS), or 0 once it is gone. */
export async function rssMb(pid: number | undefined): Promise<number> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

/** USER_HZ: /proc/<pid>/stat counts CPU time in these ticks. */
const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/**
 * CPU time a process has used so far (user + system), in ms, or 0 once it is gone. Read before and
 * after a run, it gives the app's own cost per turn, which other load on the machine disturbs far
 * less than latency (PostgreSQL's own processes are not in it).
 */
export async function cpuMs(pid: number | undefined): Promise<number> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}

/** Samples a process's RSS every `everyMs` until stopped; answers the samples. */
export function sampleRss(pid: number | undefined, everyMs: number): { stop(): number[]; samples: number[] } {
  const samples: number[] = [];
  const timer = setInterval(() => {
    void rssMb(pid).then((mb) => samples.push(mb));
  }, everyMs);
  return {
    samples,
    stop: () => {
      clearInterval(timer);
      return samples;
    },
  };
}

/** The admin URL for PostgreSQL runs: TEST_DATABASE_URL (its database only serves CREATE/DROP). */
export const pgAdminUrl = (): string | undefined =>
  process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || undefined;

/** Creates a fresh PostgreSQL database (dropping a leftover of an interrupted run) and answers its URL. */
export async function createPgDatabase(name: string): Promise<string> {
  const adminUrl = pgAdminUrl();
  if (!adminUrl)
    throw new Error('PostgreSQL runs need TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test)');
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function dropPgDatabase(name: string): Promise<void> {
  const admin = new pg.Client({ connectionString: pgAdminUrl() });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

/** A fresh store: a new DATA_DIR, plus on PostgreSQL the database `pgName` (re)created; cleanUp removes both. */
export async function openStore(
  backend: Backend,
  pgName: string,
): Promise<{ store: AppStore; cleanUp: () => Promise<void> }> {
  const dataDir = await mkdtemp(join(tmpdir(), `${pgName.replaceAll('_', '-')}-`));
  const removeDir = () => rm(dataDir, { recursive: true, force: true });
  if (backend === 'pglite') return { store: { backend, dataDir, databaseUrl: '' }, cleanUp: removeDir };
  const databaseUrl = await createPgDatabase(pgName);
  return {
    store: { backend, dataDir, databaseUrl },
    cleanUp: async () => {
      await dropPgDatabase(pgName);
      await removeDir();
    },
  };
}

/** A stopped app's database through this tree's client (on PGlite it takes the DATA_DIR lock, so a running app is refused). */
export function openStoreDatabase(store: AppStore): Promise<Database> {
  return openDatabase(
    store.backend === 'pglite'
      ? { kind: 'pglite', dataDir: store.dataDir }
      : { kind: 'postgres', url: store.databaseUrl },
  );
}

/**
 * Runs `work` with raw SQL on a stopped app's database: PGlite through this tree's client (same
 * PGlite release as the baseline's, and it takes the DATA_DIR lock, so a running app is refused),
 * PostgreSQL through a plain client.
 */
export async function withStoreSql<T>(
  store: AppStore,
  work: (query: (text: string, values?: unknown[]) => Promise<unknown[]>) => Promise<T>,
): Promise<T> {
  if (store.backend === 'postgres') {
    const client = new pg.Client({ connectionString: store.databaseUrl });
    await client.connect();
    try {
      return await work(async (text, values) => (await client.query(text, values)).rows);
    } finally {
      await client.end();
    }
  }
  const database = await openDatabase({ kind: 'pglite', dataDir: store.dataDir });
  try {
    return await work(async (text, values) => (await database.executeSql(text, values ?? [])).rows);
  } finally {
    await database.close();
  }
}
