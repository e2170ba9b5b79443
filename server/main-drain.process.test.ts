// The graceful drain as an operator's deploy meets it, on the real server: a reply streaming when
// SIGTERM arrives ends with `done` and is in the story after a restart, while during the drain the
// server still listens, readiness says 503, a read still works and a new turn is refused with 503
// and Retry-After; then the process exits 0.
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { parseSse } from './test/sse';
import { registerOverHttp, seededDataDir, spawnServer, stopServer } from './test/spawn-server';

let dataDir: string;
beforeAll(async () => {
  dataDir = await seededDataDir('tw-drain-');
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

// The offline narrator writes a word every 10 ms: a reply takes a second or two, long enough to be
// caught mid-stream.
const ENV = { BUILTIN_NARRATOR_WORD_DELAY_MS: '10', SHUTDOWN_DRAIN_MS: '20000' };

it('finishes and keeps the reply in flight on SIGTERM, refusing new turns meanwhile, then exits 0', async () => {
  const first = spawnServer({ DATA_DIR: dataDir, ...ENV });
  const exited = new Promise<number | null>((resolve) => first.child.once('exit', (code) => resolve(code)));
  const base = `http://127.0.0.1:${await first.port}`;
  const cookie = await registerOverHttp(base, 'drained', 'secret123');
  const json = { 'content-type': 'application/json', cookie };
  const started = await fetch(`${base}/api/story/start`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ prompt: 'A lighthouse keeper finds a door in the rock' }),
  });
  expect(started.status).toBe(200);
  const { storyId } = (await started.json()) as { storyId: number };

  const turn = await fetch(`${base}/api/story/${storyId}/continue`, {
    method: 'POST',
    headers: { ...json, accept: 'text/event-stream' },
    body: JSON.stringify({ message: 'I open the door' }),
  });
  expect(turn.status).toBe(200);
  const reader = turn.body!.getReader();
  const decoder = new TextDecoder();
  let body = '';
  while (!body.includes('event: delta')) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`the stream ended before its first words: ${body}`);
    body += decoder.decode(value, { stream: true });
  }

  first.child.kill('SIGTERM');
  // Readiness turns 503 at once, while the server still listens.
  let ready = await fetch(`${base}/readyz`);
  for (let i = 0; i < 50 && ready.status === 200; i += 1) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    ready = await fetch(`${base}/readyz`);
  }
  expect(ready.status).toBe(503);
  expect(await ready.json()).toEqual({ status: 'draining', database: 'pglite' });
  // Reads keep working: a 5xx here would sign the player out.
  const user = await fetch(`${base}/api/user`, { headers: { cookie } });
  expect(user.status).toBe(200);
  // New paid work is refused, with when to ask again.
  const refused = await fetch(`${base}/api/story/${storyId}/continue`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ message: 'I step through' }),
  });
  expect(refused.status).toBe(503);
  expect(refused.headers.get('retry-after')).toBe('5');
  expect(await refused.json()).toEqual({
    message: 'Taleweaver is restarting. Please try again in a few seconds.',
    code: 'UNAVAILABLE',
  });

  // The reply in flight runs to its end.
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    body += decoder.decode(value, { stream: true });
  }
  const events = parseSse(body);
  expect(events.at(-1)?.event).toBe('done');
  const reply = events.at(-1)?.data as { message: string; messageId: number };
  expect(reply.message.length).toBeGreaterThan(20);
  expect(await exited).toBe(0);

  const second = spawnServer({ DATA_DIR: dataDir, ...ENV });
  try {
    const base2 = `http://127.0.0.1:${await second.port}`;
    const story = await fetch(`${base2}/api/story/${storyId}/current-state`, { headers: { cookie } });
    expect(story.status).toBe(200);
    const { messages } = (await story.json()) as {
      messages: Array<{ messageId: number; role: string; content: string }>;
    };
    expect(messages.at(-2)).toMatchObject({ role: 'user', content: 'I open the door' });
    expect(messages.at(-1)).toMatchObject({ messageId: reply.messageId, role: 'assistant', content: reply.message });
  } finally {
    await stopServer(second.child);
  }
}, 90_000);
