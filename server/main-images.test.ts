// A picture job cut by SIGKILL: the server is killed while the painter is still drawing. After a
// restart on the same DATA_DIR the accepted job is still there, runs once more (its one retry) and
// the picture is served; the painter was asked exactly twice.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeImageServer, type FakeImageServer } from './test/fake-image-server';

let dataDir: string;
let fake: FakeImageServer;
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'tw-main-images-'));
  fake = await startFakeImageServer({ apiKey: 'sk-image-test' });
});
afterAll(async () => {
  await fake.close();
  await rm(dataDir, { recursive: true, force: true });
});

function start(): { child: ChildProcess; port: Promise<number> } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      SERVE_CLIENT: 'false',
      DATABASE_URL: '',
      DATA_DIR: dataDir,
      LLM_PROVIDER: 'builtin',
      BUILTIN_NARRATOR_WORD_DELAY_MS: '0',
      IMAGE_PROVIDER: 'openai',
      IMAGE_BASE_URL: fake.openaiBaseUrl,
      IMAGE_API_KEY: 'sk-image-test',
      IMAGE_MODEL: 'gpt-image-1',
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

/** Starts again until the killed process's DATA_DIR lock has expired. */
async function restart(): Promise<{ child: ChildProcess; port: number }> {
  for (let attempt = 0; ; attempt += 1) {
    const next = start();
    try {
      return { child: next.child, port: await next.port };
    } catch (error) {
      if (attempt > 20 || !String(error).includes('Another Taleweaver process')) throw error;
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
  }
}

async function register(base: string): Promise<string> {
  const captcha = await fetch(`${base}/api/captcha`);
  const captchaCookie = (captcha.headers.get('set-cookie') ?? '').split(';')[0];
  const [, a, op, b] = /What is (\d+) (.) (\d+)\?/.exec((await captcha.json()).question) ?? [];
  const answer = op === '+' ? +a + +b : op === '-' ? +a - +b : +a * +b;
  const res = await fetch(`${base}/api/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: captchaCookie },
    body: JSON.stringify({ username: 'killedmidpicture', email: 'picture@example.com', password: 'correct horse', captchaAnswer: String(answer) }),
  });
  expect(res.status).toBe(201);
  return res.headers.getSetCookie().find((c) => c.startsWith('tw_session='))!.split(';')[0];
}

const json = (cookie: string) => ({ 'content-type': 'application/json', cookie });

describe('a picture job cut by SIGKILL', () => {
  it('survives the kill: after the restart it runs its one retry and the picture is served', async () => {
    fake.queue.push({ kind: 'hang' });
    fake.fallback = { kind: 'ok' };
    const first = start();
    const base = `http://127.0.0.1:${await first.port}`;
    const cookie = await register(base);
    const story = await (await fetch(`${base}/api/story/start`, { method: 'POST', headers: json(cookie), body: JSON.stringify({ prompt: 'A lighthouse at the end of the world' }) })).json();
    const asked = await fetch(`${base}/api/story/message/${story.messageId}/generate-image`, {
      method: 'POST',
      headers: json(cookie),
      body: JSON.stringify({ content: story.message, storyId: story.storyId }),
    });
    expect(asked.status).toBe(202);
    // The painter has the job (and hangs on it): kill the server mid-job.
    for (let i = 0; fake.requests.length === 0; i += 1) {
      if (i > 100) throw new Error('the job never reached the painter');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));

    const second = await restart();
    const again = `http://127.0.0.1:${second.port}`;
    try {
      let res: Response | null = null;
      for (let i = 0; i < 30; i += 1) {
        res = await fetch(`${again}/api/story/message/${story.messageId}/image`, { headers: { cookie } });
        if (res.status !== 404) break;
        await res.arrayBuffer();
      }
      expect(res?.status).toBe(200);
      const picture = await res!.json();
      const bytes = await fetch(`${again}${picture.image}`, { headers: { cookie } });
      expect(bytes.status).toBe(200);
      expect(Buffer.from(await bytes.arrayBuffer()).subarray(8, 12).toString()).toBe('WEBP');
      expect(fake.requests.length).toBe(2);
    } finally {
      second.child.kill('SIGTERM');
      await new Promise((resolve) => second.child.once('exit', resolve));
    }
  }, 120_000);
});
