// `npm run bench:narrator`: first the offline demo narrator's time per reply (builtin-narrator.ts;
// BENCH_PART=builtin stops there), then the story turn path under load, over real HTTP with SSE. The real
// server (server/main.ts) runs in its own process on an embedded PGlite data dir (or PostgreSQL
// with BENCH_DATABASE_URL), against a fake OpenAI-compatible provider with a fixed time to first
// token that runs here with the load generator. Prints the app's added latency to the first delta
// (p50, p99), turns per second, the server's peak RSS, the added latency early and late in a
// 500-turn story, and prompt tokens at turns 1, 10, 100 and 500 next to a full-history prompt.
// Nothing is asserted. Knobs: BENCH_USERS (8), BENCH_TURNS (20), BENCH_TTFT_MS (150), BENCH_LONG_TURNS (500),
// BENCH_CHUNK_MS (2).
import { spawn } from 'node:child_process';
import pg from 'pg';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { countPrompt } from '../../server/ai/llm/context';
import { narratorSystemPrompt } from '../../server/ai/llm/prompts';
import { loadTokenCounter } from '../../server/ai/llm/tokenizer';
import { contentText, startFakeLlmServer } from '../../server/test/fake-llm-server';
import { DEFAULT_PREFERENCES } from '../../shared/schemas/preferences';
import { serverArgv } from '../build/serve-command.mjs';
import { median, percentile } from './lib/stats';
import { formatMs } from './lib/report';
import { benchBuiltinNarrator } from './builtin-narrator';

const USERS = Number(process.env.BENCH_USERS ?? 8);
const TURNS = Number(process.env.BENCH_TURNS ?? 20);
const TTFT_MS = Number(process.env.BENCH_TTFT_MS ?? 150);
const LONG_TURNS = Number(process.env.BENCH_LONG_TURNS ?? 500);
/**
 * The fake streams one 3-word chunk every CHUNK_MS. It shares this process with the clients, so a
 * reply written in one burst would hold up the clients' own reading of their first delta and
 * count as the app's latency (measured: +6 ms at p50); real providers stream over time anyway.
 */
const CHUNK_MS = Number(process.env.BENCH_CHUNK_MS ?? 2);
const REPLY = `${'The wind drags cold rain across the broken wall, and the torches stutter. '.repeat(9)}What do you do?`;
const PREMISE = 'Captain Mirela Voss and her navigator Tobin smuggle a sealed crate past the blockade of Port Kessrin.';

const ms = (v: number) => formatMs(v);

await benchBuiltinNarrator();
if (process.env.BENCH_PART === 'builtin') process.exit(0);

const fake = await startFakeLlmServer({ apiKey: 'sk-bench' });
let ttft = TTFT_MS;
fake.fallback = (request) => {
  const system = contentText(request.body.messages[0]?.content);
  if (system.startsWith('You maintain the memory'))
    return {
      kind: 'ok',
      text: 'You and Tobin slipped past two patrols; the crate hums; Kessrin is close.',
      ttftMs: ttft,
    };
  return { kind: 'ok', text: REPLY, ttftMs: ttft, chunkWords: 3, chunkDelayMs: CHUNK_MS };
};

const dir = await mkdtemp(join(tmpdir(), 'tw-bench-narrator-'));
// On PostgreSQL the run gets a database of its own, dropped at the end.
const pgAdminUrl = process.env.BENCH_DATABASE_URL;
const pgName = `tw_bench_narrator_${Date.now()}`;
let databaseUrl = '';
if (pgAdminUrl) {
  const admin = new pg.Client({ connectionString: pgAdminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${pgName}"`);
  await admin.end();
  const url = new URL(pgAdminUrl);
  url.pathname = `/${pgName}`;
  databaseUrl = url.toString();
}
const server = spawn(process.execPath, serverArgv('.'), {
  env: {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dir,
    DATABASE_URL: databaseUrl,
    SERVE_CLIENT: 'false',
    LOG_LEVEL: 'info',
    REGISTER_MAX_PER_HOUR: '100000',
    CAPTCHA_MAX_PER_MINUTE: '100000',
    // The long story plays 500 turns in a few minutes, past USER_TURNS_PER_HOUR's 300 an hour.
    USER_TURNS_PER_HOUR: '1000000',
    USER_SIDE_CALLS_PER_HOUR: '1000000',
    LLM_PROVIDER: 'openai',
    LLM_BASE_URL: fake.baseUrl,
    LLM_API_KEY: 'sk-bench',
    LLM_MODEL: 'bench-model',
  },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const base = await new Promise<string>((resolve, reject) => {
  let output = '';
  server.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    const match = /ready on http:\/\/localhost:(\d+)/.exec(output);
    if (match) resolve(`http://127.0.0.1:${match[1]}`);
  });
  server.on('exit', (code) => reject(new Error(`server exited with ${code}: ${output}`)));
});
const database = pgAdminUrl ? 'PostgreSQL' : 'PGlite with WAL fsync';

/** The server's resident set now (VmRSS) or at its peak (VmHWM), from /proc. */
async function rssMb(field: 'VmRSS' | 'VmHWM'): Promise<number> {
  const status = await readFile(`/proc/${server.pid}/status`, 'utf8');
  return Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) / 1024;
}
const idleRss = await rssMb('VmRSS');

/** Time to the first streamed token when calling the fake provider directly (what the app adds to). */
async function providerFirstTokenMs(): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${fake.baseUrl}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer sk-bench' },
    body: JSON.stringify({ model: 'bench-model', stream: true, messages: [{ role: 'user', content: 'hello' }] }),
  });
  const reader = res.body!.getReader();
  let first = -1;
  let text = '';
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    text += new TextDecoder().decode(read.value);
    if (first < 0 && text.includes('"content":"T')) first = performance.now() - started;
  }
  fake.requests.pop();
  return first;
}
const direct: number[] = [];
for (let i = 0; i < 20; i += 1) direct.push(await providerFirstTokenMs());
const providerTtft = percentile(
  [...direct].sort((x, y) => x - y),
  50,
);

async function register(): Promise<string> {
  const captcha = await fetch(`${base}/api/captcha`);
  const captchaCookie = (captcha.headers.get('set-cookie') ?? '').split(';')[0];
  const [, a, op, b] = /What is (\d+) (.) (\d+)\?/.exec((await captcha.json()).question) ?? [];
  const answer = op === '+' ? +a + +b : op === '-' ? +a - +b : +a * +b;
  const username = `bench${Math.random().toString(36).slice(2, 10)}`;
  const res = await fetch(`${base}/api/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: captchaCookie },
    body: JSON.stringify({
      username,
      email: `${username}@example.com`,
      password: 'benchmark-password',
      captchaAnswer: String(answer),
    }),
  });
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${await res.text()}`);
  const session = res.headers.getSetCookie().find((c) => c.startsWith('tw_session='));
  if (!session) throw new Error('register set no session cookie');
  return session.split(';')[0];
}

/** One streamed turn: milliseconds to the first delta, and the done event's payload. */
async function streamTurn(
  cookie: string,
  path: string,
  body: object,
): Promise<{ firstDeltaMs: number; done: { storyId: number } }> {
  const started = performance.now();
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', cookie },
    body: JSON.stringify(body),
  });
  if (!res.ok || !res.body) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  const decoder = new TextDecoder();
  let buffer = '';
  let firstDeltaMs = -1;
  const reader = res.body.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    buffer += decoder.decode(read.value, { stream: true });
    if (firstDeltaMs < 0 && buffer.includes('event: delta')) firstDeltaMs = performance.now() - started;
  }
  const last = buffer.trim().split('\n\n').at(-1) ?? '';
  if (!last.startsWith('event: done')) throw new Error(`${path}: ${last}`);
  return { firstDeltaMs, done: JSON.parse(last.split('\ndata: ')[1]) };
}

// 1. Concurrent players.
const cookies = await Promise.all(Array.from({ length: USERS }, () => register()));
const added: number[] = [];
const t0 = performance.now();
await Promise.all(
  cookies.map(async (cookie) => {
    const { done } = await streamTurn(cookie, '/api/story/start', { prompt: PREMISE });
    for (let turn = 1; turn <= TURNS; turn += 1) {
      const { firstDeltaMs } = await streamTurn(cookie, `/api/story/${done.storyId}/continue`, {
        message: `I steer the boat to mark ${turn}`,
      });
      added.push(firstDeltaMs - providerTtft);
    }
  }),
);
const seconds = (performance.now() - t0) / 1000;
added.sort((x, y) => x - y);
console.log(
  `${USERS} users x ${TURNS} turns, SSE, provider TTFT ${TTFT_MS} ms (measured directly: ${ms(providerTtft)}), ${database}:`,
);
console.log(`  added latency to first delta: p50 ${ms(percentile(added, 50))}, p99 ${ms(percentile(added, 99))}`);
console.log(
  `  throughput: ${((USERS * (TURNS + 1)) / seconds).toFixed(1)} turns/s (each turn streams ${REPLY.split(' ').length} words)`,
);

// 2. One long story: prompt size and added latency early and late.
ttft = 0;
direct.length = 0;
for (let i = 0; i < 20; i += 1) direct.push(await providerFirstTokenMs());
const instantTtft = percentile(
  [...direct].sort((x, y) => x - y),
  50,
);
const cookie = await register();
const { done } = await streamTurn(cookie, '/api/story/start', { prompt: PREMISE });
const firstRequest = fake.requests.length;
const early: number[] = [];
const late: number[] = [];
for (let turn = 1; turn <= LONG_TURNS; turn += 1) {
  const { firstDeltaMs } = await streamTurn(cookie, `/api/story/${done.storyId}/continue`, {
    message: `I steer the boat to mark ${turn}`,
  });
  if (turn > 10 && turn <= 30) early.push(firstDeltaMs - instantTtft);
  if (turn > LONG_TURNS - 20) late.push(firstDeltaMs - instantTtft);
}
const count = await loadTokenCounter();
const turnRequests = fake.requests
  .slice(firstRequest - 1)
  .filter((r) => !contentText(r.body.messages[0]?.content).startsWith('You maintain the memory'));
const system = narratorSystemPrompt(DEFAULT_PREFERENCES);
const summaries = fake.requests.length - firstRequest - LONG_TURNS;
console.log(`one story of ${LONG_TURNS} turns (${summaries} memory folds):`);
console.log(`  added latency to first delta, turns 11-30: ${ms(median(early))}; last 20 turns: ${ms(median(late))}`);
for (const turn of [1, 10, 100, 500].filter((t) => t <= LONG_TURNS)) {
  const sent = turnRequests[turn];
  const [sys, ...messages] = sent.body.messages.map((m) => ({
    role: m.role as 'user' | 'assistant',
    content: contentText(m.content),
  }));
  const full = countPrompt(
    system,
    [
      { role: 'user', content: PREMISE },
      ...Array.from({ length: turn }, (_, i) => [
        { role: 'user' as const, content: `I steer the boat to mark ${i}` },
        { role: 'assistant' as const, content: REPLY },
      ]).flat(),
    ],
    count,
  );
  console.log(
    `  turn ${String(turn).padStart(3)}: prompt ${countPrompt(sys.content, messages, count)} tokens (full history would be ${full})`,
  );
}
console.log(`server RSS: ${idleRss.toFixed(0)} MB idle after start, ${(await rssMb('VmHWM')).toFixed(0)} MB peak`);

server.kill('SIGTERM');
await new Promise((resolve) => server.once('exit', resolve));
await fake.close();
await rm(dir, { recursive: true, force: true });
if (pgAdminUrl) {
  const admin = new pg.Client({ connectionString: pgAdminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${pgName}" WITH (FORCE)`);
  await admin.end();
}
