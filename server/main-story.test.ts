// A process killed in the middle of a narrator reply: after a restart on the same DATA_DIR the
// story holds the player's premise and no half reply, nothing is left "generating", and retry
// answers the premise at once.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'tw-main-story-'));
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

function start(env: Record<string, string>): { child: ChildProcess; port: Promise<number> } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', SERVE_CLIENT: 'false', DATABASE_URL: '', DATA_DIR: dataDir, LLM_PROVIDER: 'builtin', ...env },
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

async function register(base: string): Promise<string> {
  const captcha = await fetch(`${base}/api/captcha`);
  const captchaCookie = (captcha.headers.get('set-cookie') ?? '').split(';')[0];
  const [, a, op, b] = /What is (\d+) (.) (\d+)\?/.exec((await captcha.json()).question) ?? [];
  const answer = op === '+' ? +a + +b : op === '-' ? +a - +b : +a * +b;
  const res = await fetch(`${base}/api/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: captchaCookie },
    body: JSON.stringify({ username: 'killedmidturn', email: 'killed@example.com', password: 'correct horse', captchaAnswer: String(answer) }),
  });
  expect(res.status).toBe(201);
  return res.headers.getSetCookie().find((c) => c.startsWith('tw_session='))!.split(';')[0];
}

describe('a narrator reply cut by SIGKILL', () => {
  it('leaves the premise, no half reply and no lease; retry answers it after the restart', async () => {
    const slow = start({ BUILTIN_NARRATOR_WORD_DELAY_MS: '300' });
    const base = `http://127.0.0.1:${await slow.port}`;
    const cookie = await register(base);
    const res = await fetch(`${base}/api/story/start`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', cookie },
      body: JSON.stringify({ prompt: 'A clockmaker hears her clocks whisper at midnight' }),
    });
    const reader = res.body!.getReader();
    let seen = '';
    while (!seen.includes('event: delta')) seen += new TextDecoder().decode((await reader.read()).value);
    slow.child.kill('SIGKILL');
    await new Promise((resolve) => slow.child.once('exit', resolve));

    // The DATA_DIR lock of a killed process expires after 15 seconds: start again until it has.
    let restarted = start({ BUILTIN_NARRATOR_WORD_DELAY_MS: '0' });
    let port = 0;
    for (let attempt = 0; port === 0; attempt += 1) {
      try {
        port = await restarted.port;
      } catch (error) {
        if (attempt > 20 || !String(error).includes('Another Taleweaver process')) throw error;
        await new Promise((resolve) => setTimeout(resolve, 2000));
        restarted = start({ BUILTIN_NARRATOR_WORD_DELAY_MS: '0' });
      }
    }
    const again = `http://127.0.0.1:${port}`;
    try {
      const login = await fetch(`${again}/api/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'killedmidturn', password: 'correct horse' }),
      });
      const session = login.headers.getSetCookie().find((c) => c.startsWith('tw_session='))!.split(';')[0];
      const state = await (await fetch(`${again}/api/story/1/current-state`, { headers: { cookie: session } })).json();
      expect(state.messages.map((m: { role: string; content: string }) => [m.role, m.content])).toEqual([['user', 'A clockmaker hears her clocks whisper at midnight']]);
      const retry = await fetch(`${again}/api/story/1/retry`, { method: 'POST', headers: { 'content-type': 'application/json', cookie: session }, body: '{}' });
      expect(retry.status).toBe(200);
      expect((await retry.json()).message.split(/\s+/).length).toBeGreaterThanOrEqual(80);
    } finally {
      restarted.child.kill('SIGTERM');
      await new Promise((resolve) => restarted.child.once('exit', resolve));
    }
  }, 90_000);
});
