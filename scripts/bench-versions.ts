// `npm run bench:versions`: the server time of the player's controls (issue 12) on a long story.
// Builds a story of BENCH_TURNS turns (default 1,000: 2,001 messages written by the builtin
// narrator) straight into the database, then times each call over real HTTP on loopback (a
// keep-alive client in this process): Fastify's own server time (reply.elapsedTime, from the
// request's arrival to the answer handed to the socket) and the client's round trip. Calls: undo
// and redo (each answers the whole current state, 2,001 messages; also as a browser asks, with
// brotli), erase from here, edit, select a version, list versions, branch (a copy of all 1,000
// turns), and GET current-state for scale. On embedded PGlite (a temporary data dir, fsync on)
// and, with TEST_DATABASE_URL or BENCH_DATABASE_URL, on PostgreSQL (database tw_bench_versions,
// created and dropped here). Prints p50 / p99 in ms; asserts nothing.
import { mkdtemp, rm } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { composeReply } from '../server/ai/llm/builtin/narrator';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import { openDatabase, type Database } from '../server/db/client';
import { createRepositories } from '../server/db/repositories';
import { createPgDatabase, dropPgDatabase, pgAdminUrl } from './bench-lib/processes';

const TURNS = Number(process.env.BENCH_TURNS ?? 1000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 30);
const BRANCH_ROUNDS = Number(process.env.BENCH_BRANCH_ROUNDS ?? 10);
const ACTIONS = ['I look around', 'I follow the path north', 'I ask the stranger who they are', 'I open the old chest', 'I listen at the door', 'I climb higher'];
const PG_NAME = 'tw_bench_versions';
interface Timed {
  /** The client's round trip on loopback: sending, the server's work, and reading the whole answer. */
  ms: number;
  serverMs: number;
  /** The answer's size in bytes, as sent. */
  bytes: number;
}

/** What Chromium sends: the app answers it with brotli, made on the request's own time. */
const BROWSER_ENCODINGS = 'gzip, deflate, br, zstd';

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function register(app: FastifyInstance): Promise<{ cookie: string; userId: number }> {
  const username = `bench${Date.now()}`;
  const captcha = await app.inject({ method: 'GET', url: '/api/captcha' });
  const captchaCookie = captcha.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
  const [, a, op, b] = /What is (\d+) (.) (\d+)\?/.exec(captcha.json().question) ?? [];
  const answer = op === '+' ? +a + +b : op === '-' ? +a - +b : +a * +b;
  const registered = await app.inject({
    method: 'POST',
    url: '/api/register',
    headers: { cookie: captchaCookie, 'x-requested-with': 'XMLHttpRequest' },
    payload: { username, email: `${username}@example.com`, password: 'benchmark-password', captchaAnswer: String(answer) },
  });
  if (registered.statusCode !== 201 && registered.statusCode !== 200) throw new Error(`register failed: ${registered.statusCode} ${registered.body}`);
  return { cookie: registered.cookies.map((c) => `${c.name}=${c.value}`).join('; '), userId: registered.json().id };
}

/** A TURNS-turn story written through the repositories, as play would have stored it. */
async function seedStory(database: Database, userId: number): Promise<{ storyId: number; lastReplyId: number }> {
  const repos = createRepositories(database.db);
  const premise = 'A lighthouse keeper on a storm-bound island finds a door in the rock that was not there yesterday';
  const start = Date.now() - TURNS * 60_000;
  const { story } = await repos.stories.create({ userId, premise, now: new Date(start), leaseUntil: new Date(start) });
  let lastReplyId = 0;
  for (let turn = 0; turn <= TURNS; turn += 1) {
    const action = turn === 0 ? premise : ACTIONS[turn % ACTIONS.length];
    if (turn > 0) await repos.stories.appendAction(story.id, action, new Date(start + turn * 60_000));
    const content = composeReply({ storyId: story.id, turn, attempt: 0, premise, action });
    lastReplyId = (await repos.stories.saveReply({ storyId: story.id, turn, content, alternativeTo: null, usage: null, now: new Date(start + turn * 60_000 + 1000) })).id;
  }
  return { storyId: story.id, lastReplyId };
}

async function measureBackend(label: string, database: Database, dataDir: string): Promise<void> {
  const config = loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: dataDir, BUILTIN_NARRATOR_WORD_DELAY_MS: '0' });
  const app = await buildApp(config, { database, logger: false });
  // Server time: Fastify's own clock from the request's arrival to its answer handed to the socket.
  let lastServerMs = 0;
  app.addHook('onResponse', (_request, reply, done) => {
    lastServerMs = reply.elapsedTime;
    done();
  });
  await app.ready();
  try {
    const { cookie, userId } = await register(app);
    const seeded = performance.now();
    const { storyId, lastReplyId } = await seedStory(database, userId);
    console.log(`${label}: seeded ${TURNS} turns (${TURNS * 2 + 1} messages) in ${((performance.now() - seeded) / 1000).toFixed(1)} s`);
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const call = async (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object, acceptEncoding = 'identity'): Promise<Timed> => {
      const body = method === 'GET' ? undefined : JSON.stringify(payload ?? {});
      const started = performance.now();
      const { status, length, error } = await new Promise<{ status: number; length: number; error: string }>((resolve, reject) => {
        const headers: Record<string, string> = { cookie, 'x-requested-with': 'XMLHttpRequest', 'accept-encoding': acceptEncoding };
        if (body !== undefined) headers['content-type'] = 'application/json';
        const req = request(`${address}/api/story/${storyId}${url}`, { method, agent, headers }, (res) => {
          // Counted, not kept: this process is the server's too, and a copy of every 915 KB answer
          // (or a string of it) would be garbage its collector spends the server's time on.
          const chunks: Buffer[] = [];
          let length = 0;
          res.on('data', (chunk: Buffer) => {
            length += chunk.length;
            if (res.statusCode !== undefined && res.statusCode >= 300) chunks.push(chunk);
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, length, error: Buffer.concat(chunks).toString() }));
          res.on('error', reject);
        });
        req.on('error', reject);
        req.end(body);
      });
      const ms = performance.now() - started;
      await new Promise(setImmediate); // the server's onResponse, should it come after the client's end
      if (status >= 300) throw new Error(`${method} ${url} answered ${status}: ${error}`);
      return { ms, serverMs: lastServerMs, bytes: length };
    };
    const times: Record<string, { server: number[]; roundTrip: number[] }> = {};
    const record = (name: string, timed: Timed) => {
      const entry = (times[name] ??= { server: [], roundTrip: [] });
      entry.server.push(timed.serverMs);
      entry.roundTrip.push(timed.ms);
    };
    const lastAction = () => lastReplyId - 1;

    for (let i = 0; i < 3; i += 1) await call('GET', '/current-state'); // warm-up
    let stateBytes = 0;
    for (let round = 0; round < ROUNDS; round += 1) {
      const state = await call('GET', '/current-state');
      stateBytes = state.bytes;
      record('GET current-state (reference)', state);
      record('undo', await call('POST', '/undo'));
      record('redo', await call('POST', '/redo'));
      record('undo, Accept-Encoding: br (as a browser)', await call('POST', '/undo', {}, BROWSER_ENCODINGS));
      record('redo, Accept-Encoding: br (as a browser)', await call('POST', '/redo', {}, BROWSER_ENCODINGS));
      record('erase from the last action', await call('POST', '/erase', { fromMessageId: lastAction() }));
      await call('POST', '/redo');
      record('edit a reply (PATCH)', await call('PATCH', `/messages/${lastReplyId}`, { content: `An edited reply, round ${round}.` }));
      record('select a version', await call('POST', `/messages/${lastReplyId}/select`, { version: 1 + (round % 2) }));
      record('list versions', await call('GET', `/messages/${lastReplyId}/versions`));
      record('edit an early action (PATCH)', await call('PATCH', `/messages/3`, { content: `I look around, round ${round}` }));
    }
    for (let round = 0; round < BRANCH_ROUNDS; round += 1) record(`branch (${TURNS} turns)`, await call('POST', '/branch', { messageId: lastReplyId }));
    agent.destroy();

    console.log(`\n${label}, ${TURNS}-turn story (current state ${(stateBytes / 1024).toFixed(0)} KB), ms:`);
    console.log('| call | n | server p50 | server p99 | round trip p50 | round trip p99 | round trip max |');
    console.log('|---|---|---|---|---|---|---|');
    for (const [name, { server, roundTrip }] of Object.entries(times)) {
      const cells = [percentile(server, 50), percentile(server, 99), percentile(roundTrip, 50), percentile(roundTrip, 99), Math.max(...roundTrip)];
      console.log(`| ${name} | ${server.length} | ${cells.map((v) => v.toFixed(1)).join(' | ')} |`);
    }
  } finally {
    await app.close();
  }
}

async function main() {
  const dataDir = await mkdtemp(join(tmpdir(), 'tw-bench-versions-'));
  try {
    const pglite = await openDatabase({ kind: 'pglite', dataDir });
    await pglite.migrate();
    try {
      await measureBackend('PGlite', pglite, dataDir);
    } finally {
      await pglite.close();
    }
    if (pgAdminUrl()) {
      const url = await createPgDatabase(PG_NAME);
      const postgres = await openDatabase({ kind: 'postgres', url });
      await postgres.migrate();
      try {
        await measureBackend('PostgreSQL', postgres, dataDir);
      } finally {
        await postgres.close();
        await dropPgDatabase(PG_NAME);
      }
    } else {
      console.log('\nPostgreSQL skipped: set TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test).');
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
