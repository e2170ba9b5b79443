// `npm run bench:login`: login latency over real HTTP on loopback, against the app on an embedded
// PGlite data dir (with its WAL fsync) and, when BENCH_DATABASE_URL is set, on PostgreSQL.
// Prints p50/p95/p99 and throughput; nothing is asserted.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/kernel/config';
import { openDatabase, type Database } from '../../server/db/client';
import { percentile } from './lib/stats';
import { formatMs } from './lib/report';
import { listenAppOnLoopback } from '../../server/test/listen-on-loopback';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 200);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 4);

async function bench(label: string, database: Database): Promise<void> {
  await database.migrate();
  const config = {
    ...loadConfig({ LOG_LEVEL: 'silent', SERVE_CLIENT: 'false' }),
    rateLimits: { loginMaxFailures: 1e9, loginWindowMs: 60_000, registerPerHour: 1e9, captchaPerMinute: 1e9 },
  };
  const app = await buildApp(config, { database, logger: false });
  const { url: base } = await listenAppOnLoopback(app);

  const captcha = await fetch(`${base}/api/captcha`);
  const cookie = (captcha.headers.get('set-cookie') ?? '').split(';')[0];
  const [, a, op, b] = /What is (\d+) (.) (\d+)\?/.exec((await captcha.json()).question) ?? [];
  const answer = op === '+' ? +a + +b : op === '-' ? +a - +b : +a * +b;
  const username = `bench${Date.now()}`;
  const reg = await fetch(`${base}/api/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify({
      username,
      email: `${username}@example.com`,
      password: 'benchmark-password',
      captchaAnswer: String(answer),
    }),
  });
  if (reg.status !== 201) throw new Error(`register failed: ${reg.status} ${await reg.text()}`);

  const login = async () => {
    const t0 = performance.now();
    const res = await fetch(`${base}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, password: 'benchmark-password' }),
    });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`login failed: ${res.status}`);
    return performance.now() - t0;
  };
  for (let i = 0; i < 10; i += 1) await login(); // warm-up

  const sequential: number[] = [];
  for (let i = 0; i < ROUNDS; i += 1) sequential.push(await login());
  sequential.sort((x, y) => x - y);

  const t0 = performance.now();
  let done = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (done < ROUNDS) {
        done += 1;
        await login();
      }
    }),
  );
  const perSecond = (ROUNDS / (performance.now() - t0)) * 1000;

  const ms = (v: number) => formatMs(v);
  console.log(
    `${label}: login p50 ${ms(percentile(sequential, 50))}, p95 ${ms(percentile(sequential, 95))}, p99 ${ms(percentile(sequential, 99))} ` +
      `(${ROUNDS} sequential); ${perSecond.toFixed(0)} logins/s with ${CONCURRENCY} concurrent clients`,
  );
  await app.close();
  await database.close();
}

const dir = await mkdtemp(join(tmpdir(), 'tw-bench-'));
try {
  await bench('PGlite (embedded, WAL fsync per write)', await openDatabase({ kind: 'pglite', dataDir: dir }));
} finally {
  await rm(dir, { recursive: true, force: true });
}

const pgUrl = process.env.BENCH_DATABASE_URL;
if (pgUrl) {
  const name = `tw_bench_${Date.now()}`;
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  try {
    const url = new URL(pgUrl);
    url.pathname = `/${name}`;
    await bench('PostgreSQL (loopback TCP)', await openDatabase({ kind: 'postgres', url: url.toString() }));
  } finally {
    await admin.query(`DROP DATABASE "${name}" WITH (FORCE)`);
    await admin.end();
  }
}
