// The real entry point as an operator runs it (the compiled bundle with `npm run serve`'s flags, which
// the process tier's global setup built): starts on an empty embedded data dir, refuses a second
// process on the same DATA_DIR, rejects bad configuration, and shuts down cleanly on SIGTERM with
// committed data kept; and, as `npm start` runs it, finds its migrations and plays a turn.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverArgv } from '../scripts/build/serve-command.mjs';
import { registerOverHttp } from './test/spawn-server';

let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'tw-main-'));
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

interface Running {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function start(env: Record<string, string>): Running {
  const argv = serverArgv('.', { build: false });
  let output = '';
  const child = spawn(process.execPath, argv, {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', SERVE_CLIENT: 'false', DATABASE_URL: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

async function waitForPort(running: Running): Promise<number> {
  for (let i = 0; i < 300; i += 1) {
    const match = /ready on http:\/\/localhost:(\d+)/.exec(running.output());
    if (match) return Number(match[1]);
    if (running.child.exitCode !== null) throw new Error(`exited early: ${running.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`did not start: ${running.output()}`);
}

describe('server/main', () => {
  it('serves, refuses a second process on the same DATA_DIR, and keeps data across a SIGTERM restart', async () => {
    const first = start({ DATA_DIR: dataDir });
    const port = await waitForPort(first);
    const base = `http://127.0.0.1:${port}`;
    expect(await (await fetch(`${base}/readyz`)).json()).toEqual({ status: 'ready', database: 'pglite' });

    const second = start({ DATA_DIR: dataDir });
    expect(await second.exited).toBe(1);
    expect(second.output()).toMatch(/Another Taleweaver process is using the data directory/);

    // A committed write: a captcha challenge, then a registration.
    const captcha = await fetch(`${base}/api/captcha`);
    const cookie = (captcha.headers.get('set-cookie') ?? '').split(';')[0];
    const { question } = await captcha.json();
    const [, a, op, b] = /What is (\d+) (.) (\d+)\?/.exec(question) ?? [];
    const answer = op === '+' ? +a + +b : op === '-' ? +a - +b : +a * +b;
    const register = await fetch(`${base}/api/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify({
        username: 'durable',
        email: 'durable@example.com',
        password: 'secret123',
        captchaAnswer: String(answer),
      }),
    });
    expect(register.status).toBe(201);

    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);

    const third = start({ DATA_DIR: dataDir });
    const port3 = await waitForPort(third);
    const check = await fetch(`http://127.0.0.1:${port3}/api/check-username?username=durable`);
    expect(await check.json()).toEqual({ available: false });
    third.child.kill('SIGINT');
    expect(await third.exited).toBe(0);
  }, 60_000);

  it('exits with a clear message on bad configuration', async () => {
    const bad = start({ DATA_DIR: dataDir, PORT: 'abc', COOKIE_SECURE: 'maybe' });
    expect(await bad.exited).toBe(1);
    expect(bad.output()).toMatch(/PORT must be a whole number/);
    expect(bad.output()).toMatch(/COOKIE_SECURE must be auto, true or false/);
  }, 30_000);

  it('runs compiled as `npm start` runs it: migrations and the database thread found beside the bundle, a turn played', async () => {
    const scripts = JSON.parse(await readFile('package.json', 'utf8')).scripts as Record<string, string>;
    expect(scripts.start).toBe(`npm run build && ${scripts.serve}`);
    const compiledDir = await mkdtemp(join(tmpdir(), 'tw-compiled-'));
    const server = start({ DATA_DIR: compiledDir, BUILTIN_NARRATOR_WORD_DELAY_MS: '0', LLM_PROVIDER: 'builtin' });
    try {
      const base = `http://127.0.0.1:${await waitForPort(server)}`;
      const cookie = await registerOverHttp(base, 'compiled', 'secret123');
      const started = await fetch(`${base}/api/story/start`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie },
        body: JSON.stringify({ prompt: 'A clockmaker hears the tower bell ring thirteen' }),
      });
      expect(started.status).toBe(200);
      const { storyId } = await started.json();
      const turn = await fetch(`${base}/api/story/${storyId}/continue`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie },
        body: JSON.stringify({ message: 'I climb the tower' }),
      });
      expect(turn.status).toBe(200);
      expect((await turn.json()).message).toEqual(expect.any(String));
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    } finally {
      server.child.kill('SIGKILL');
      await rm(compiledDir, { recursive: true, force: true });
    }
  }, 60_000);
});
