// `npm run bench:admin`: the admin dashboard's API at scale, on a fresh embedded PGlite data dir
// (temp DATA_DIR, removed afterwards) and on a throwaway PostgreSQL database (created and dropped
// here, on BENCH_DATABASE_URL, else TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432), in one run:
// 1. Seeds users, stories and usage-ledger rows with set-based SQL so the rollup triggers fire as
//    in production (scripts/bench/admin-seed.ts); prints the seeding time per step and backend.
//    PostgreSQL is then given the VACUUM ANALYZE its autovacuum would run after such a load (it is
//    off on these machines). PGlite runs single-user, with no autovacuum: an embedded app's tables
//    are never analyzed, so PGlite is measured twice, as the app leaves it and after VACUUM ANALYZE.
// 2. Starts the app (buildApp) on 127.0.0.1, registers an admin (ADMIN_USERNAMES) and logs in as
//    the heaviest user, then times each dashboard call with fetch after a warm-up: p50/p95/p99 and
//    mean; the users CSV also by bytes, rows and memory (RSS and heapUsed sampled every 25 ms, peak
//    rise over the start of the download, after a full collection; one more download with a full
//    collection at 25/50/75 % of it for the live heap), against the heap that holding every user's
//    row at once takes (what a CSV built in memory would hold at least); and, in-process, the time
//    of the database batches alone and of the service's CSV generator. Table sizes, live and dead
//    rows after seeding and after VACUUM.
// 3. EXPLAIN (ANALYZE, BUFFERS) of the SQL the repositories run (their query builders' .toSQL()).
// 4. A summary per backend with the goals: users page and usage card under 100 ms p50 on
//    PostgreSQL, the CSV under 5 s with flat memory. PASS/MISS are printed; nothing is asserted.
// Arguments: --users N (100000), --rows M usage rows (1000000), --stories S (users × 1.5),
// --iterations I (40; the CSV takes I/8, at least 3), --backends pglite,postgres.
// Quick run: npm run bench:admin -- --users 10000 --rows 100000 --iterations 15
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import pg from 'pg';
import { buildApp } from '../../server/app';
import { loadConfig, type AppConfig } from '../../server/kernel/config';
import { openDatabase, type Database } from '../../server/db/client';
import { createRepositories } from '../../server/db/repositories';
import { monthKey, utcDay } from '../../server/db/repositories/usage';
import { createAdminService } from '../../server/domains/admin/admin';
import { createPasswordHasher } from '../../server/domains/account/passwords';
import { registerOverHttp } from '../../server/test/spawn-server';
import { heaviestUser, seed, type SeedTimes } from './admin-seed';
import { percentile } from './lib/stats';
import { formatMb, formatMs } from './lib/report';
import { listenAppOnLoopback } from '../../server/test/listen-on-loopback';

const { values: args } = parseArgs({
  options: {
    users: { type: 'string', default: '100000' },
    rows: { type: 'string', default: '1000000' },
    stories: { type: 'string' },
    iterations: { type: 'string', default: '40' },
    backends: { type: 'string', default: 'pglite,postgres' },
  },
});
const USERS = Number(args.users);
const SIZE = { users: USERS, rows: Number(args.rows), stories: Number(args.stories ?? Math.round(USERS * 1.5)) };
const ITERATIONS = Number(args.iterations);
const WARMUP = 5;
const CSV_ITERATIONS = Math.max(3, Math.round(ITERATIONS / 8));
const BACKENDS = args.backends.split(',') as Array<'pglite' | 'postgres'>;
const PG_URL =
  process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const ADMIN = 'benchadmin';
const PASSWORD = 'benchmark-password';
const DEEP_PAGE = Math.max(1, Math.min(1500, Math.floor(USERS / 50)));
const SAMPLE_MS = 25;
const GOAL_MS = 100;
const CSV_GOAL_MS = 5000;

// A full collection before each memory baseline, without asking for `node --expose-gc`.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

// Seeding 100,000 users takes seconds: those read better in s.
const ms = (v: number) => (v >= 1000 ? `${(v / 1000).toFixed(2)} s` : formatMs(v));
const mb = (bytes: number) => formatMb(bytes, 1);
const signedMb = (bytes: number) => `${bytes < 0 ? '-' : '+'}${mb(Math.abs(bytes))}`;
const log = (line: string) => console.log(line);

interface Stats {
  p50: number;
  p95: number;
  p99: number;
  mean: number;
}
function stats(values: number[]): Stats {
  return {
    p50: percentile(values, 50),
    p95: percentile(values, 95),
    p99: percentile(values, 99),
    mean: values.reduce((a, b) => a + b, 0) / values.length,
  };
}

function table(header: string[], rows: string[][]): void {
  log(`| ${header.join(' | ')} |`);
  log(`|${header.map(() => '---').join('|')}|`);
  for (const row of rows) log(`| ${row.join(' | ')} |`);
  log('');
}

async function openBenchDatabase(
  kind: 'pglite' | 'postgres',
): Promise<{ database: Database; cleanUp: () => Promise<void> }> {
  if (kind === 'pglite') {
    const dir = await mkdtemp(join(tmpdir(), 'tw-bench-admin-'));
    try {
      return {
        database: await openDatabase({ kind: 'pglite', dataDir: dir }),
        cleanUp: () => rm(dir, { recursive: true, force: true }),
      };
    } catch (error) {
      await rm(dir, { recursive: true, force: true });
      throw error;
    }
  }
  const name = `tw_bench_admin_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  const drop = async () => {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  };
  try {
    return { database: await openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 10 }), cleanUp: drop };
  } catch (error) {
    await drop();
    throw error;
  }
}

async function login(base: string, username: string): Promise<string> {
  const res = await fetch(`${base}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: PASSWORD }),
  });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  return res.headers
    .getSetCookie()
    .find((c) => c.startsWith('tw_session='))!
    .split(';')[0];
}

/** Times one GET to the last byte of its body. */
async function timedGet(url: string, cookie: string): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(url, { headers: { cookie } });
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`${url}: ${res.status}`);
  return performance.now() - t0;
}

interface CsvRun {
  ms: number;
  bytes: number;
  rows: number;
  rssRise: number;
  heapRise: number;
  /** Live heap over the start (after a full collection) as the download passed each `probeAt` byte count. */
  live: number[];
}

/** One CSV download read chunk by chunk (never held whole), with this process's memory sampled every 25 ms. */
async function csvRun(url: string, cookie: string, probeAt: number[] = []): Promise<CsvRun> {
  gc();
  const start = process.memoryUsage();
  let peakRss = start.rss;
  let peakHeap = start.heapUsed;
  const sampler = setInterval(() => {
    const now = process.memoryUsage();
    peakRss = Math.max(peakRss, now.rss);
    peakHeap = Math.max(peakHeap, now.heapUsed);
  }, SAMPLE_MS);
  const t0 = performance.now();
  try {
    const res = await fetch(url, { headers: { cookie } });
    if (!res.ok || !res.body) throw new Error(`${url}: ${res.status}`);
    let bytes = 0;
    let lines = 0;
    const live: number[] = [];
    const reader = res.body.getReader();
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      const chunk = next.value;
      bytes += chunk.byteLength;
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines += 1;
      while (live.length < probeAt.length && bytes >= probeAt[live.length]) {
        gc();
        live.push(process.memoryUsage().heapUsed - start.heapUsed);
      }
    }
    return {
      ms: performance.now() - t0,
      bytes,
      rows: lines - 1,
      rssRise: peakRss - start.rss,
      heapRise: peakHeap - start.heapUsed,
      live,
    };
  } finally {
    clearInterval(sampler);
  }
}

/** Where the CSV's time goes, in-process: the database batches alone, then the service's whole generator (batches and formatting). */
async function csvSplit(database: Database, config: AppConfig): Promise<{ dbOnly: number; generator: number }> {
  const repos = createRepositories(database.db);
  const month = monthKey(new Date());
  let t0 = performance.now();
  for (let batch = await repos.adminUsers.batchAfter(0, 2000, month); batch.length > 0;)
    batch = await repos.adminUsers.batchAfter(batch[batch.length - 1].id, 2000, month);
  const dbOnly = performance.now() - t0;
  const admin = createAdminService({
    repos,
    llm: config.llm,
    catalogue: config.narrators,
    image: config.image,
    monthlyTokenLimit: config.userMonthlyTokenLimit,
    now: () => new Date(),
  });
  t0 = performance.now();
  for await (const chunk of admin.usersCsv()) if (chunk.length === 0) break;
  return { dbOnly, generator: performance.now() - t0 };
}

/** Live and dead rows and on-disk size of the tables the dashboard reads (dead rows: what only VACUUM removes). */
async function tableSizes(database: Database): Promise<string[][]> {
  const { rows } = await database.executeSql(
    `SELECT relname AS name, n_live_tup AS live, n_dead_tup AS dead, pg_table_size(relid) AS heap, pg_indexes_size(relid) AS indexes FROM pg_stat_user_tables
     WHERE relname IN ('users', 'stories', 'usage_events', 'user_stats', 'usage_daily', 'user_usage_monthly') ORDER BY relname`,
  );
  return (rows as Array<Record<string, string | number>>).map((r) => [
    String(r.name),
    Number(r.live).toLocaleString('en'),
    Number(r.dead).toLocaleString('en'),
    mb(Number(r.heap)),
    mb(Number(r.indexes)),
  ]);
}

/** The heap that holding every user's row at once takes (what a CSV built in memory would hold at least). */
async function heapOfAllRows(database: Database): Promise<number> {
  gc();
  const before = process.memoryUsage().heapUsed;
  const rows = await createRepositories(database.db).adminUsers.batchAfter(0, USERS + 10, monthKey(new Date()));
  gc();
  return rows.length > 0 ? process.memoryUsage().heapUsed - before : 0;
}

/** The SQL the endpoints run, from the repositories' own query builders. */
function plannedQueries(database: Database): Array<{ label: string; query: { sql: string; params: unknown[] } }> {
  const repos = createRepositories(database.db);
  const at = new Date();
  const month = monthKey(at);
  const page = { tab: 'all' as const, month, order: 'asc' as const, limit: 50, offset: 0 };
  const from90 = utcDay(new Date(at.getTime() - 89 * 86_400_000));
  return [
    { label: 'users page (default: id order, page 1)', query: repos.adminUsers.pageQuery(page).toSQL() },
    {
      label: `users page ${DEEP_PAGE} (offset ${(DEEP_PAGE - 1) * 50})`,
      query: repos.adminUsers.pageQuery({ ...page, offset: (DEEP_PAGE - 1) * 50 }).toSQL(),
    },
    { label: 'sort: total desc', query: repos.adminUsers.pageQuery({ ...page, sort: 'total', order: 'desc' }).toSQL() },
    {
      label: "sort: thisMonth desc, 'all' tab",
      query: repos.adminUsers.pageQuery({ ...page, sort: 'thisMonth', order: 'desc' }).toSQL(),
    },
    {
      label: 'This Month tab, sort thisMonth desc',
      query: repos.adminUsers.pageQuery({ ...page, tab: 'month', sort: 'thisMonth', order: 'desc' }).toSQL(),
    },
    { label: "search '4242' (page)", query: repos.adminUsers.pageQuery({ ...page, search: '4242' }).toSQL() },
    {
      label: "search '4242' (footer totals)",
      query: repos.adminUsers.totalsQuery({ tab: 'all', month, search: '4242' }).toSQL(),
    },
    { label: 'footer totals, everyone', query: repos.adminUsers.totalsQuery({ tab: 'all', month }).toSQL() },
    { label: 'footer totals, This Month tab', query: repos.adminUsers.totalsQuery({ tab: 'month', month }).toSQL() },
    { label: 'usage card totals', query: repos.usage.totalsAllQuery(at).toSQL() },
    { label: 'history 90 days by day and kind', query: repos.usage.dailyByKindQuery(from90, utcDay(at)).toSQL() },
    { label: 'history 90 days by model', query: repos.usage.byModelQuery(from90, utcDay(at)).toSQL() },
  ];
}

interface PhaseResult {
  label: string;
  seedTimes: SeedTimes;
  vacuumAnalyze: number | null;
  timings: Array<{ name: string; stats: Stats; size: number }>;
  csv: CsvRun[];
  heldHeap: number;
  live: number[];
  split: { dbOnly: number; generator: number };
}

/** Times every endpoint, downloads the CSV and prints the plans, on the app as it stands. */
async function measure(
  label: string,
  database: Database,
  config: AppConfig,
  base: string,
  cookies: { admin: string; heavy: string },
  heavy: { id: number; username: string; total: number },
) {
  const someone = `player${String(Math.ceil(USERS * 0.42)).padStart(Math.max(6, String(USERS).length), '0')}`;
  const endpoints: Array<[string, string, string]> = [
    ['users page (no parameters)', '/admin/users', cookies.admin],
    [`deep page (page=${DEEP_PAGE})`, `/admin/users?page=${DEEP_PAGE}`, cookies.admin],
    ['This Month tab', '/admin/users?tab=month', cookies.admin],
    [`search full username (${someone})`, `/admin/users?q=${someone}`, cookies.admin],
    ["search partial '4242'", '/admin/users?q=4242', cookies.admin],
    ["search, no hits ('zzqx')", '/admin/users?q=zzqx', cookies.admin],
    ['sort total desc', '/admin/users?sort=total&order=desc', cookies.admin],
    ["sort thisMonth desc ('all' tab)", '/admin/users?sort=thisMonth&order=desc', cookies.admin],
    ['sort username asc', '/admin/users?sort=username&order=asc', cookies.admin],
    ['sort lastActive desc', '/admin/users?sort=lastActive&order=desc', cookies.admin],
    ['This Month tab, sort thisMonth desc', '/admin/users?tab=month&sort=thisMonth&order=desc', cookies.admin],
    ['usage card (/admin/api-usage)', '/admin/api-usage', cookies.admin],
    ['history 30 days', '/admin/usage/history?days=30', cookies.admin],
    ['history 90 days', '/admin/usage/history?days=90', cookies.admin],
    ["one user's months (heaviest)", `/admin/users/${heavy.id}/usage`, cookies.admin],
    ['/api/user of the heaviest user (allowance read)', '/user', cookies.heavy],
  ];
  const timings: PhaseResult['timings'] = [];
  for (const [name, path, cookie] of endpoints) {
    const res = await fetch(base + path, { headers: { cookie } });
    const body = await res.text();
    if (!res.ok) throw new Error(`${path}: ${res.status} ${body}`);
    for (let i = 0; i < WARMUP; i += 1) await timedGet(base + path, cookie);
    const samples: number[] = [];
    for (let i = 0; i < ITERATIONS; i += 1) samples.push(await timedGet(base + path, cookie));
    const matching =
      path.startsWith('/admin/users?') || path === '/admin/users'
        ? ` (${JSON.parse(body).metadata.matchingUsers} matching)`
        : '';
    timings.push({ name: name + matching, stats: stats(samples), size: body.length });
  }
  log(
    `Timings on ${label}: ${WARMUP} warm-up calls, then ${ITERATIONS} sequential calls each; heaviest user ${heavy.username} (id ${heavy.id}, ${heavy.total.toLocaleString('en')} tokens).\n`,
  );
  table(
    ['endpoint', 'p50', 'p95', 'p99', 'mean', 'body'],
    timings.map((t) => [
      t.name,
      ms(t.stats.p50),
      ms(t.stats.p95),
      ms(t.stats.p99),
      ms(t.stats.mean),
      `${(t.size / 1024).toFixed(1)} KB`,
    ]),
  );

  const csv: CsvRun[] = [];
  for (let i = 0; i < CSV_ITERATIONS; i += 1) csv.push(await csvRun(`${base}/admin/users/download`, cookies.admin));
  log(
    `Users CSV (/admin/users/download), ${CSV_ITERATIONS} downloads, memory sampled every ${SAMPLE_MS} ms (app, database client${database.kind === 'pglite' ? ' with PGlite' : ''} and fetch all in this process):\n`,
  );
  table(
    ['download', 'time to last byte', 'bytes', 'rows', 'peak RSS rise', 'peak heapUsed rise'],
    csv.map((c, i) => [
      String(i + 1),
      ms(c.ms),
      mb(c.bytes),
      c.rows.toLocaleString('en'),
      mb(c.rssRise),
      mb(c.heapRise),
    ]),
  );
  const { live } = await csvRun(
    `${base}/admin/users/download`,
    cookies.admin,
    [0.25, 0.5, 0.75].map((f) => f * csv[0].bytes),
  );
  const heldHeap = await heapOfAllRows(database);
  const split = await csvSplit(database, config);
  log(
    `One more download with a full collection at 25/50/75 % of it: live heap ${live.map(signedMb).join(' / ')} over its start.`,
  );
  log(
    `For contrast: holding all ${USERS.toLocaleString('en')} users' rows at once takes ${mb(heldHeap)} of heap (after a full collection); the CSV is ${mb(csv[0].bytes)}.`,
  );
  log(
    `In-process, no HTTP: the ${Math.ceil(USERS / 2000)} database batches alone take ${ms(split.dbOnly)}; the service's CSV generator (batches and formatting) ${ms(split.generator)}.\n`,
  );

  log(`EXPLAIN (ANALYZE, BUFFERS) of the repositories' SQL on ${label}:\n`);
  for (const { label: what, query } of plannedQueries(database)) {
    const { rows } = await database.executeSql(`EXPLAIN (ANALYZE, BUFFERS) ${query.sql}`, query.params);
    log(`### ${what}\n${query.sql}\n${JSON.stringify(query.params)}`);
    log((rows as Array<Record<string, string>>).map((r) => `    ${r['QUERY PLAN']}`).join('\n') + '\n');
  }
  return { timings, csv, heldHeap, live, split };
}

async function benchOn(kind: 'pglite' | 'postgres'): Promise<PhaseResult[]> {
  const backend = kind === 'pglite' ? 'PGlite (embedded)' : 'PostgreSQL (loopback TCP)';
  log(`\n## ${backend}\n`);
  const { database, cleanUp } = await openBenchDatabase(kind);
  try {
    await database.migrate();
    log(
      `Seeding ${SIZE.users.toLocaleString('en')} users, ${SIZE.stories.toLocaleString('en')} stories, ${SIZE.rows.toLocaleString('en')} usage rows:`,
    );
    const seedTimes = await seed(database, SIZE, log);
    log(`  total ${seedTimes.total.toFixed(1)} s\n`);
    table(['table', 'live rows', 'dead rows', 'heap', 'indexes'], await tableSizes(database));
    const heavy = await heaviestUser(database);
    await database.executeSql('UPDATE users SET password_hash = $1 WHERE id = $2', [
      await createPasswordHasher().hash(PASSWORD),
      heavy.id,
    ]);

    const config = {
      ...loadConfig({ LOG_LEVEL: 'silent', SERVE_CLIENT: 'false', IMAGE_PROVIDER: 'none', ADMIN_USERNAMES: ADMIN }),
      rateLimits: { loginMaxFailures: 1e9, loginWindowMs: 60_000, registerPerHour: 1e9, captchaPerMinute: 1e9 },
    };
    const app = await buildApp(config, { database, logger: false });
    const { url: origin } = await listenAppOnLoopback(app);
    try {
      const cookies = {
        admin: await registerOverHttp(origin, ADMIN, PASSWORD),
        heavy: await login(`${origin}/api`, heavy.username),
      };
      // PGlite first as the embedded app leaves it (never analyzed), then both after VACUUM ANALYZE.
      const phases = kind === 'pglite' ? [false, true] : [true];
      const results: PhaseResult[] = [];
      for (const analyze of phases) {
        let vacuumAnalyze: number | null = null;
        if (analyze) {
          const t0 = performance.now();
          await database.executeSql('VACUUM ANALYZE');
          vacuumAnalyze = (performance.now() - t0) / 1000;
          log(`VACUUM ANALYZE: ${vacuumAnalyze.toFixed(1)} s\n`);
          table(['table', 'live rows', 'dead rows', 'heap', 'indexes'], await tableSizes(database));
        }
        const label =
          kind === 'postgres' ? backend : `${backend}, ${analyze ? 'after VACUUM ANALYZE' : 'never analyzed'}`;
        results.push({
          label,
          seedTimes,
          vacuumAnalyze,
          ...(await measure(label, database, config, `${origin}/api`, cookies, heavy)),
        });
      }
      return results;
    } finally {
      await app.close();
    }
  } finally {
    await database.close();
    await cleanUp();
  }
}

const verdict = (ok: boolean) => (ok ? 'PASS' : 'MISS');

function summary(results: PhaseResult[]): void {
  log('\n## Summary\n');
  log(
    `${SIZE.users.toLocaleString('en')} users, ${SIZE.stories.toLocaleString('en')} stories, ${SIZE.rows.toLocaleString('en')} usage rows; ${ITERATIONS} calls per endpoint after ${WARMUP} warm-up calls.\n`,
  );
  const seeded = results.filter((r, i) => results.findIndex((o) => o.seedTimes === r.seedTimes) === i);
  table(
    ['backend', 'users', 'stories', 'usage rows', 'seeding total', 'usage rows/s'],
    seeded.map((r) => [
      r.label.replace(/, never analyzed$/, ''),
      ...[r.seedTimes.users, r.seedTimes.stories, r.seedTimes.usage, r.seedTimes.total].map((x) => `${x.toFixed(1)} s`),
      Math.round(SIZE.rows / r.seedTimes.usage).toLocaleString('en'),
    ]),
  );
  for (const r of results) {
    log(`### ${r.label}${r.vacuumAnalyze === null ? '' : ` (VACUUM ANALYZE took ${r.vacuumAnalyze.toFixed(1)} s)`}\n`);
    table(
      ['endpoint', 'p50', 'p95', 'p99'],
      r.timings.map((t) => [t.name, ms(t.stats.p50), ms(t.stats.p95), ms(t.stats.p99)]),
    );
    const c = stats(r.csv.map((x) => x.ms));
    const worstHeap = Math.max(...r.csv.map((x) => x.heapRise));
    const worstRss = Math.max(...r.csv.map((x) => x.rssRise));
    log(
      `CSV: p50 ${ms(c.p50)}, worst ${ms(Math.max(...r.csv.map((x) => x.ms)))}, ${mb(r.csv[0].bytes)}, ${r.csv[0].rows.toLocaleString('en')} rows; peak rise heapUsed ${mb(worstHeap)}, ` +
        `RSS ${mb(worstRss)} (worst of ${r.csv.length}); live heap at 25/50/75 %: ${r.live.map(signedMb).join(' / ')}; all rows held at once: ${mb(r.heldHeap)}. ` +
        `In-process: database batches ${ms(r.split.dbOnly)}, generator ${ms(r.split.generator)}.\n`,
    );
  }
  log('### Goals\n');
  const rows: string[][] = [];
  for (const r of results) {
    const find = (prefix: string) => r.timings.find((t) => t.name.startsWith(prefix))!.stats.p50;
    if (r.label.startsWith('PostgreSQL')) {
      rows.push([
        r.label,
        `users page p50 < ${GOAL_MS} ms`,
        ms(find('users page')),
        verdict(find('users page') < GOAL_MS),
      ]);
      rows.push([
        r.label,
        `usage card p50 < ${GOAL_MS} ms`,
        ms(find('usage card')),
        verdict(find('usage card') < GOAL_MS),
      ]);
    }
    const worst = Math.max(...r.csv.map((x) => x.ms));
    const heap = Math.max(...r.csv.map((x) => x.heapRise));
    rows.push([
      r.label,
      `CSV of ${SIZE.users.toLocaleString('en')} users < ${CSV_GOAL_MS / 1000} s (worst download)`,
      ms(worst),
      verdict(worst < CSV_GOAL_MS),
    ]);
    const live = Math.max(...r.live);
    rows.push([
      r.label,
      'CSV memory flat: live heap mid-download < 1/4 of all rows held',
      `${signedMb(live)} (peak heapUsed +${mb(heap)}) vs ${mb(r.heldHeap)}`,
      verdict(live < r.heldHeap / 4),
    ]);
  }
  table(['backend', 'goal', 'measured', 'verdict'], rows);
}

const results: PhaseResult[] = [];
for (const kind of BACKENDS) results.push(...(await benchOn(kind)));
summary(results);
