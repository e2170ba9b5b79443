// A picture job cut by SIGKILL: the server is killed while the painter is still drawing. After a
// restart on the same DATA_DIR the accepted job is still there, runs once more (its one retry) and
// the picture is served; the painter was asked exactly twice.
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeImageServer, type FakeImageServer } from './test/fake-image-server';
import { registerOverHttp, respawnServer, seededDataDir, spawnServer, stopServer } from './test/spawn-server';

let dataDir: string;
let fake: FakeImageServer;
beforeAll(async () => {
  dataDir = await seededDataDir('tw-main-images-');
  fake = await startFakeImageServer({ apiKey: 'sk-image-test' });
});
afterAll(async () => {
  await fake.close();
  await rm(dataDir, { recursive: true, force: true });
});

const ENV = {
  DATA_DIR: '',
  BUILTIN_NARRATOR_WORD_DELAY_MS: '0',
  IMAGE_PROVIDER: 'openai',
  IMAGE_API_KEY: 'sk-image-test',
  IMAGE_MODEL: 'gpt-image-1',
};
const env = () => ({ ...ENV, DATA_DIR: dataDir, IMAGE_BASE_URL: fake.openaiBaseUrl });

const json = (cookie: string) => ({ 'content-type': 'application/json', cookie });

describe('a picture job cut by SIGKILL', () => {
  it('survives the kill: after the restart it runs its one retry and the picture is served', async () => {
    fake.queue.push({ kind: 'hang' });
    fake.fallback = { kind: 'ok' };
    const first = spawnServer(env());
    const base = `http://127.0.0.1:${await first.port}`;
    const cookie = await registerOverHttp(base, 'killedmidpicture', 'correct horse');
    const story = await (
      await fetch(`${base}/api/story/start`, {
        method: 'POST',
        headers: json(cookie),
        body: JSON.stringify({ prompt: 'A lighthouse at the end of the world' }),
      })
    ).json();
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
    await stopServer(first.child, 'SIGKILL');

    const second = await respawnServer(env());
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
      expect(
        Buffer.from(await bytes.arrayBuffer())
          .subarray(8, 12)
          .toString(),
      ).toBe('WEBP');
      expect(fake.requests.length).toBe(2);
    } finally {
      await stopServer(second.child);
    }
  }, 120_000);
});
