// A process killed in the middle of a narrator reply: after a restart on the same DATA_DIR the
// story holds the player's premise and no half reply, nothing is left "generating", and retry
// answers the premise at once.
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerOverHttp, respawnServer, seededDataDir, spawnServer, stopServer } from './test/spawn-server';

let dataDir: string;
beforeAll(async () => {
  dataDir = await seededDataDir('tw-main-story-');
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

const start = (env: Record<string, string>) => spawnServer({ DATA_DIR: dataDir, ...env });

describe('a narrator reply cut by SIGKILL', () => {
  it('leaves the premise, no half reply and no lease; retry answers it after the restart', async () => {
    const slow = start({ BUILTIN_NARRATOR_WORD_DELAY_MS: '300' });
    const base = `http://127.0.0.1:${await slow.port}`;
    const cookie = await registerOverHttp(base, 'killedmidturn', 'correct horse');
    const res = await fetch(`${base}/api/story/start`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', cookie },
      body: JSON.stringify({ prompt: 'A clockmaker hears her clocks whisper at midnight' }),
    });
    const reader = res.body!.getReader();
    let seen = '';
    while (!seen.includes('event: delta')) seen += new TextDecoder().decode((await reader.read()).value);
    await stopServer(slow.child, 'SIGKILL');

    // Restarting at once, as a supervisor would: the killed process's DATA_DIR lock is taken over.
    const restarted = await respawnServer({ DATA_DIR: dataDir, BUILTIN_NARRATOR_WORD_DELAY_MS: '0' });
    const port = restarted.port;
    const again = `http://127.0.0.1:${port}`;
    try {
      const login = await fetch(`${again}/api/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'killedmidturn', password: 'correct horse' }),
      });
      const session = login.headers
        .getSetCookie()
        .find((c) => c.startsWith('tw_session='))!
        .split(';')[0];
      const state = await (await fetch(`${again}/api/story/1/current-state`, { headers: { cookie: session } })).json();
      expect(state.messages.map((m: { role: string; content: string }) => [m.role, m.content])).toEqual([
        ['user', 'A clockmaker hears her clocks whisper at midnight'],
      ]);
      const retry = await fetch(`${again}/api/story/1/retry`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: session },
        body: '{}',
      });
      expect(retry.status).toBe(200);
      expect((await retry.json()).message.split(/\s+/).length).toBeGreaterThanOrEqual(80);
    } finally {
      await stopServer(restarted.child);
    }
  }, 90_000);
});
