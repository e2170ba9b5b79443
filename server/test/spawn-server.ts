// The real server as a child process (the compiled bundle, as `npm run serve` starts it) for the
// tests that kill it: start it, wait for its "ready" line, start it again on a killed one's DATA_DIR
// (no waiting: the dead owner's lock is taken over at once), and register a player over HTTP with
// the captcha solved.
import { spawn, type ChildProcess } from 'node:child_process';
import { cp, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { inject } from 'vitest';
import { serverArgv } from '../../scripts/build/serve-command.mjs';

export interface SpawnedServer {
  child: ChildProcess;
  port: Promise<number>;
}

/**
 * A new DATA_DIR holding the embedded database a first start would have made and migrated (copied
 * from the process tier's template, global-setup.ts), for the tests about something after the first
 * start. main.process.test.ts starts on empty ones.
 */
export async function seededDataDir(prefix: string): Promise<string> {
  const dataDir = await mkdtemp(join(tmpdir(), prefix));
  await cp(inject('pgliteDataDirTemplate'), join(dataDir, 'pgdata'), {
    recursive: true,
    filter: (source) => basename(source) !== 'postmaster.pid',
  });
  return dataDir;
}

/** Starts the server as `npm run serve` does: the compiled bundle, which the process tier's global setup built. */
export function spawnServer(env: Record<string, string>): SpawnedServer {
  const child = spawn(process.execPath, serverArgv('.', { build: false }), {
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      SERVE_CLIENT: 'false',
      DATABASE_URL: '',
      LLM_PROVIDER: 'builtin',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const port = new Promise<number>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /ready on http:\/\/localhost:(\d+)/.exec(output);
      if (match) resolve(Number(match[1]));
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', (code) => reject(new Error(`exited with ${code}: ${output}`)));
  });
  return { child, port };
}

/**
 * Starts again on the DATA_DIR of a process that was just killed. Its lock is taken over at once
 * (the owner is dead), so one attempt must do: a refusal here is a bug, not something to wait out.
 */
export async function respawnServer(env: Record<string, string>): Promise<{ child: ChildProcess; port: number }> {
  const next = spawnServer(env);
  return { child: next.child, port: await next.port };
}

export async function stopServer(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  await exited;
}

/** Registers over HTTP (the captcha read and solved) and answers the session cookie. */
export async function registerOverHttp(base: string, username: string, password: string): Promise<string> {
  const captcha = await fetch(`${base}/api/captcha`);
  const captchaCookie = (captcha.headers.get('set-cookie') ?? '').split(';')[0];
  const [, a, op, b] = /What is (\d+) (.) (\d+)\?/.exec((await captcha.json()).question) ?? [];
  const answer = op === '+' ? +a + +b : op === '-' ? +a - +b : +a * +b;
  const res = await fetch(`${base}/api/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: captchaCookie },
    body: JSON.stringify({ username, email: `${username}@example.com`, password, captchaAnswer: String(answer) }),
  });
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${await res.text()}`);
  return res.headers
    .getSetCookie()
    .find((c) => c.startsWith('tw_session='))!
    .split(';')[0];
}
