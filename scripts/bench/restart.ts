// `npm run bench:restart`: how long a supervisor's restart takes after a crash. Starts the real
// server as `npm start` does (`node --max-old-space-size=512 --import tsx server/main.ts`, the
// builtin narrator) on a fresh DATA_DIR, fills it
// (--players players, each with a story of --turns turns), then --rounds times: kill -9 the server
// in the middle of a narrator reply, start it again at once on the same DATA_DIR and port, and time
// from the kill to the first successful GET /healthz. Each round checks the data survived (a player
// logs in, the story still has its turns) before the next kill. Prints every round and p50 / max.
// Flags: --rounds 5 --players 50 --turns 4 --serve-client (serve the built SPA too: `npm run build` first)
// --supervise MS (a refused start is started again after MS, as a supervisor would: to time a
// checkout whose lock makes restarts wait).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { registerOverHttp } from '../../server/test/spawn-server';
import { freePort } from './lib/ports';
import { serverArgv } from '../build/serve-command.mjs';
import { maxOf, median } from './lib/stats';

const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    players: { type: 'string', default: '50' },
    turns: { type: 'string', default: '4' },
    'serve-client': { type: 'boolean', default: false },
    supervise: { type: 'string' },
  },
});
const ROUNDS = Number(args.rounds);
const PLAYERS = Number(args.players);
const TURNS = Number(args.turns);
const root = resolve(new URL('../..', import.meta.url).pathname);

const dataDir = await mkdtemp(join(tmpdir(), 'tw-bench-restart-'));
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const env = (wordDelayMs: number): NodeJS.ProcessEnv => ({
  ...process.env,
  PORT: String(port),
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  DATABASE_URL: '',
  SERVE_CLIENT: String(args['serve-client']),
  LOG_LEVEL: 'warn',
  LLM_PROVIDER: 'builtin',
  BUILTIN_NARRATOR_WORD_DELAY_MS: String(wordDelayMs),
  REGISTER_MAX_PER_HOUR: '1000000',
  CAPTCHA_MAX_PER_MINUTE: '1000000',
});

function start(wordDelayMs: number): ChildProcess {
  // As `npm start` runs it.
  const child = spawn(process.execPath, serverArgv(root), {
    cwd: root,
    env: env(wordDelayMs),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  child.stderr?.on('data', (chunk) => (errors = (errors + chunk).slice(-4000)));
  child.on('exit', (code, signal) => {
    if (code !== 0 && signal !== 'SIGKILL' && !args.supervise)
      console.error(`server exited (${code ?? signal}): ${errors}`);
  });
  return child;
}

/** Polls /healthz until it answers 200; answers when (performance.now()) it did. */
async function healthy(deadlineMs = 120_000): Promise<number> {
  const until = performance.now() + deadlineMs;
  while (performance.now() < until) {
    try {
      const res = await fetch(`${base}/healthz`);
      if (res.ok) return performance.now();
    } catch {
      // Not listening yet.
    }
    await new Promise((done) => setTimeout(done, 10));
  }
  throw new Error(`the server did not come back within ${deadlineMs / 1000} s`);
}

const json = (cookie: string) => ({ 'content-type': 'application/json', cookie });

async function turn(cookie: string, storyId: number, text: string): Promise<void> {
  const res = await fetch(`${base}/api/story/${storyId}/continue`, {
    method: 'POST',
    headers: json(cookie),
    body: JSON.stringify({ message: text }),
  });
  if (res.status !== 200) throw new Error(`turn failed: ${res.status} ${await res.text()}`);
}

let server = start(0);
try {
  await healthy();
  console.log(`bench:restart: filling ${dataDir} with ${PLAYERS} players, ${TURNS} turns each`);
  const players: Array<{ name: string; cookie: string; storyId: number }> = [];
  for (let i = 0; i < PLAYERS; i += 1) {
    const name = `restart${i}`;
    const cookie = await registerOverHttp(base, name, 'benchmark-password');
    const story = await (
      await fetch(`${base}/api/story/start`, {
        method: 'POST',
        headers: json(cookie),
        body: JSON.stringify({ prompt: `A lighthouse keeper's log, volume ${i}` }),
      })
    ).json();
    for (let t = 1; t <= TURNS; t += 1) await turn(cookie, story.storyId, `I climb to the lamp, night ${t}.`);
    players.push({ name, cookie, storyId: story.storyId });
  }
  // Slow replies from now on, so every kill lands in the middle of one.
  server.kill('SIGTERM');
  await new Promise((done) => server.once('exit', done));
  server = start(200);
  await healthy();

  const times: number[] = [];
  for (let round = 1; round <= ROUNDS; round += 1) {
    const victim = players[round % players.length];
    const reply = fetch(`${base}/api/story/${victim.storyId}/continue`, {
      method: 'POST',
      headers: { ...json(victim.cookie), accept: 'text/event-stream' },
      body: JSON.stringify({ message: 'I light the lamp.' }),
    });
    const reader = (await reply).body!.getReader();
    let seen = '';
    while (!seen.includes('event: delta')) seen += new TextDecoder().decode((await reader.read()).value);

    const exited = new Promise((done) => server.once('exit', done));
    const killedAt = performance.now();
    server.kill('SIGKILL');
    await exited;
    server = start(200);
    let attempts = 1;
    let upAt: number;
    if (args.supervise) {
      // Restart whatever exits until one stays up, as systemd's Restart=always would.
      const supervisor = setInterval(() => {
        if (server.exitCode === null) return;
        server = start(200);
        attempts += 1;
      }, Number(args.supervise));
      upAt = await healthy().finally(() => clearInterval(supervisor));
    } else {
      upAt = await healthy();
    }
    times.push(upAt - killedAt);

    // The data survived: the player signs in again and the story still has its turns.
    const login = await fetch(`${base}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: victim.name, password: 'benchmark-password' }),
    });
    const cookie = login.headers
      .getSetCookie()
      .find((c) => c.startsWith('tw_session='))!
      .split(';')[0];
    const state = await (
      await fetch(`${base}/api/story/${victim.storyId}/current-state`, { headers: { cookie } })
    ).json();
    const kept = state.messages?.length ?? 0;
    console.log(
      `round ${round}: kill -9 to first 200 from /healthz ${(upAt - killedAt).toFixed(0)} ms (${attempts} start${attempts > 1 ? 's' : ''}); story ${victim.storyId} holds ${kept} messages`,
    );
    if (kept < 2 * TURNS) throw new Error(`story ${victim.storyId} lost turns: ${kept} messages`);
    victim.cookie = cookie;
  }
  console.log(
    `p50 ${median(times).toFixed(0)} ms, max ${maxOf(times).toFixed(0)} ms over ${ROUNDS} restarts (serve client: ${args['serve-client']})`,
  );
} finally {
  server.kill('SIGTERM');
  await new Promise((done) =>
    server.exitCode !== null || server.signalCode !== null ? done(null) : server.once('exit', done),
  );
  await rm(dataDir, { recursive: true, force: true });
}
