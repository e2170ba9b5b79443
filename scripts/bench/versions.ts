// `npm run bench:versions`: the time of the player's controls on a long story.
// The server runs as `npm start` runs it (the compiled bundle with its node flags, its own process,
// as a player meets it); a story of BENCH_TURNS turns (default 1,000: 2,001 messages written by the
// builtin narrator) is written straight into its database while it is stopped. Each call is then
// timed over real HTTP on loopback by a keep-alive client in this process: the round trip, from
// sending to the whole answer read, so the server's time plus the transfer. Calls: undo and redo
// (each answers the whole current state, 2,001 messages; also as a browser asks, with brotli),
// erase from here, edit, select a version, list versions, branch (a copy of all 1,000 turns), and
// GET current-state for scale. On embedded PGlite (a temporary data dir, fsync on) and, with
// TEST_DATABASE_URL or BENCH_DATABASE_URL, on PostgreSQL (database tw_bench_versions, created and
// dropped here). `--server-dir DIR` times another checkout's server (before / after) against the
// same story. Prints p50 / p99 / max in ms and the server's RSS; asserts nothing.
import { Agent, request } from 'node:http';
import { parseArgs } from 'node:util';
import { createRepositories } from '../../server/db/repositories';
import { registerOverHttp } from '../../server/test/spawn-server';
import { writeLongStory } from './lib/long-story';
import {
  openStore,
  openStoreDatabase,
  pgAdminUrl,
  rssMb,
  startApp,
  stopProcess,
  type AppStore,
  type Backend,
} from './lib/processes';
import { percentile } from './lib/stats';

const { values: args } = parseArgs({
  options: {
    'server-dir': { type: 'string', default: '.' },
    backends: { type: 'string' },
  },
});
const TURNS = Number(process.env.BENCH_TURNS ?? 1000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 30);
const BRANCH_ROUNDS = Number(process.env.BENCH_BRANCH_ROUNDS ?? 10);
const PG_NAME = 'tw_bench_versions';
interface Timed {
  /** The client's round trip on loopback: sending, the server's work, and reading the whole answer. */
  ms: number;
  /** The answer's size in bytes, as sent. */
  bytes: number;
}

/** What Chromium sends: the app answers it with brotli, made on the request's own time. */
const BROWSER_ENCODINGS = 'gzip, deflate, br, zstd';

/** The app's environment: the offline narrator, the store, limits a benchmark does not trip. */
function benchEnv(store: AppStore): NodeJS.ProcessEnv {
  return {
    ...process.env,
    HOST: '127.0.0.1',
    DATA_DIR: store.dataDir,
    DATABASE_URL: store.databaseUrl,
    SERVE_CLIENT: 'false',
    LOG_LEVEL: 'warn',
    LLM_PROVIDER: 'builtin',
    BUILTIN_NARRATOR_WORD_DELAY_MS: '0',
  };
}

/** A TURNS-turn story written through the repositories (the app stopped), as play would have stored it. */
async function seedStory(store: AppStore, userId: number): Promise<{ storyId: number; lastReplyId: number }> {
  const database = await openStoreDatabase(store);
  try {
    const repos = createRepositories(database.db);
    return await writeLongStory(repos, userId, TURNS);
  } finally {
    await database.close();
  }
}

async function measureBackend(backend: Backend): Promise<void> {
  const label = backend === 'pglite' ? 'PGlite' : 'PostgreSQL';
  const { store, cleanUp } = await openStore(backend, PG_NAME);
  try {
    // Registered over HTTP (the app makes the schema and the account), then the story is written
    // while the app is stopped (PGlite's data directory has one owner at a time).
    let app = await startApp(args['server-dir'], benchEnv(store));
    const cookie = await registerOverHttp(app.base, `bench${Date.now()}`, 'benchmark-password');
    const userId = (await (await fetch(`${app.base}/api/user`, { headers: { cookie } })).json()).id as number;
    await stopProcess(app.child);
    const seeded = performance.now();
    const { storyId, lastReplyId } = await seedStory(store, userId);
    console.log(
      `${label}: seeded ${TURNS} turns (${TURNS * 2 + 1} messages) in ${((performance.now() - seeded) / 1000).toFixed(1)} s`,
    );
    app = await startApp(args['server-dir'], benchEnv(store));
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const call = async (
      method: 'GET' | 'POST' | 'PATCH',
      url: string,
      payload?: object,
      acceptEncoding = 'identity',
    ): Promise<Timed> => {
      const body = method === 'GET' ? undefined : JSON.stringify(payload ?? {});
      const started = performance.now();
      const { status, length, error } = await new Promise<{ status: number; length: number; error: string }>(
        (resolve, reject) => {
          const headers: Record<string, string> = {
            cookie,
            'x-requested-with': 'XMLHttpRequest',
            'accept-encoding': acceptEncoding,
          };
          if (body !== undefined) headers['content-type'] = 'application/json';
          const req = request(`${app.base}/api/story/${storyId}${url}`, { method, agent, headers }, (res) => {
            const chunks: Buffer[] = [];
            let length = 0;
            res.on('data', (chunk: Buffer) => {
              length += chunk.length;
              if (res.statusCode !== undefined && res.statusCode >= 300) chunks.push(chunk);
            });
            res.on('end', () =>
              resolve({ status: res.statusCode ?? 0, length, error: Buffer.concat(chunks).toString() }),
            );
            res.on('error', reject);
          });
          req.on('error', reject);
          req.end(body);
        },
      );
      const ms = performance.now() - started;
      if (status >= 300) throw new Error(`${method} ${url} answered ${status}: ${error}`);
      return { ms, bytes: length };
    };
    const times: Record<string, number[]> = {};
    const sizes: Record<string, number[]> = {};
    const record = (name: string, timed: Timed) => {
      (times[name] ??= []).push(timed.ms);
      (sizes[name] ??= []).push(timed.bytes);
    };
    const lastAction = () => lastReplyId - 1;

    for (let i = 0; i < 3; i += 1) await call('GET', '/current-state'); // warm-up
    const rssBefore = await rssMb(app.child.pid);
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
      record(
        'edit a reply (PATCH)',
        await call('PATCH', `/messages/${lastReplyId}`, { content: `An edited reply, round ${round}.` }),
      );
      record('select a version', await call('POST', `/messages/${lastReplyId}/select`, { version: 1 + (round % 2) }));
      record('list versions', await call('GET', `/messages/${lastReplyId}/versions`));
      record(
        'edit an early action (PATCH)',
        await call('PATCH', `/messages/3`, { content: `I look around, round ${round}` }),
      );
    }
    for (let round = 0; round < BRANCH_ROUNDS; round += 1)
      record(`branch (${TURNS} turns)`, await call('POST', '/branch', { messageId: lastReplyId }));
    const rssAfter = await rssMb(app.child.pid);
    agent.destroy();
    await stopProcess(app.child);

    console.log(
      `\n${label}, ${TURNS}-turn story (current state ${(stateBytes / 1024).toFixed(0)} KB), server ${args['server-dir']}, RSS ${rssBefore.toFixed(0)} -> ${rssAfter.toFixed(0)} MB; round trip in ms:`,
    );
    console.log('| call | n | p50 | p90 | p99 | max | over 50 ms | answer KB (median) |');
    console.log('|---|---|---|---|---|---|---|---|');
    for (const [name, ms] of Object.entries(times)) {
      const cells = [percentile(ms, 50), percentile(ms, 90), percentile(ms, 99), Math.max(...ms)].map((v) =>
        v.toFixed(1),
      );
      console.log(
        `| ${name} | ${ms.length} | ${cells.join(' | ')} | ${ms.filter((v) => v > 50).length} | ${(percentile(sizes[name], 50) / 1024).toFixed(1)} |`,
      );
    }
  } finally {
    await cleanUp();
  }
}

const backends = (args.backends ?? (pgAdminUrl() ? 'pglite,postgres' : 'pglite')).split(',') as Backend[];
for (const backend of backends) await measureBackend(backend);
if (!pgAdminUrl())
  console.log('\nPostgreSQL skipped: set TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test).');
