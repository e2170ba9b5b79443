// A hostile story does not stop the server for everyone: the real server in its own process imports
// a story whose premise is followed by 8,000 narrator messages in a row (valid: roles need not
// alternate in a file), and one action on it leaves the server answering another visitor's
// /api/captcha while that turn is still running (the fake narrator holds its answer until then).
// Once the turn's context took one loop per dropped message over a 3.7-million-character merged
// message, blocking the event loop for minutes before the provider was even called.
//
// A clock is unavoidable here: a blocked loop answers eventually, so "answered" alone cannot tell
// a blocked server from a free one. LIVENESS_MS is a generous liveness bound, not a speed target:
// the free server answers in milliseconds, the blocked one did not answer for minutes.
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { contentText, startFakeLlmServer, type FakeLlmServer } from './test/fake-llm-server';
import { registerOverHttp, seededDataDir, spawnServer, stopServer, type SpawnedServer } from './test/spawn-server';

const LIVENESS_MS = 10_000;
const NARRATOR_RUN = 8_000;
const PREMISE = 'A lighthouse keeper who has not spoken to anyone in years';

function hostileFile(): string {
  const at = new Date().toISOString();
  const line = 'The lamp turns and turns over the black water, and nothing answers it from the dark. ';
  const messages = [{ role: 'user', content: PREMISE, turn: 0, isInitial: true, createdAt: at }];
  for (let i = 1; i <= NARRATOR_RUN; i += 1)
    messages.push({ role: 'assistant', content: `${i}. ${line.repeat(5)}`, turn: 0, isInitial: false, createdAt: at });
  const story = { title: 'The Silent Keeper', premise: PREMISE, memory: '', memoryCovers: 0, notes: '', createdAt: at };
  return JSON.stringify({ format: 'taleweaver.story', version: 2, exportedAt: at, story, messages });
}

let dataDir: string;
let fake: FakeLlmServer;
let server: SpawnedServer;
let release: () => void;
beforeAll(async () => {
  dataDir = await seededDataDir('tw-hostile-story-');
  fake = await startFakeLlmServer({ apiKey: 'sk-hostile' });
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  fake.fallback = {
    kind: 'ok',
    text: 'The lamp steadies. Far out, a boat answers with a light. What do you do?',
    usage: { input: 100, output: 15 },
    hold: held,
  };
  server = spawnServer({
    DATA_DIR: dataDir,
    LLM_PROVIDER: 'openai',
    LLM_BASE_URL: fake.baseUrl,
    LLM_API_KEY: 'sk-hostile',
    LLM_MODEL: 'fake-gpt',
  });
});
afterAll(async () => {
  release();
  // Killed, not stopped: a server whose loop is blocked would not hear SIGTERM for minutes.
  await stopServer(server.child, 'SIGKILL');
  await fake.close();
  await rm(dataDir, { recursive: true, force: true });
});

it('answers another visitor while one action runs on a story of 8,000 narrator messages in a row', async () => {
  const base = `http://127.0.0.1:${await server.port}`;
  const cookie = await registerOverHttp(base, 'silentkeeper', 'correct horse');
  const imported = await fetch(`${base}/api/story/import`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie },
    body: hostileFile(),
  });
  expect(imported.status).toBe(201);
  const { storyId } = (await imported.json()) as { storyId: number };

  // Only the answer's head is bounded: its body is held until the captcha has been answered.
  const headTimeout = new AbortController();
  const timer = setTimeout(() => headTimeout.abort(), LIVENESS_MS);
  const hostile = await fetch(`${base}/api/story/${storyId}/continue`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', cookie },
    body: JSON.stringify({ message: 'I light the lamp and wait' }),
    signal: headTimeout.signal,
  });
  clearTimeout(timer);
  expect(hostile.status).toBe(200);
  const captcha = await fetch(`${base}/api/captcha`, { signal: AbortSignal.timeout(LIVENESS_MS) });
  expect(captcha.status).toBe(200);
  expect(((await captcha.json()) as { question: string }).question).toMatch(/^What is \d+ . \d+\?$/);

  // The hostile turn was still running: its reply is held until now. It reached the narrator with
  // a prompt that alternates, from the pinned premise to the action.
  const deadline = Date.now() + LIVENESS_MS;
  while (fake.requests.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  const [turn] = fake.requests;
  const roles = turn.body.messages.map((m) => m.role);
  expect(roles[0]).toBe('system');
  expect(roles.slice(1).every((role, i) => role === (i % 2 === 0 ? 'user' : 'assistant'))).toBe(true);
  expect(contentText(turn.body.messages[1].content)).toContain(PREMISE);
  expect(contentText(turn.body.messages.at(-1)!.content)).toBe('I light the lamp and wait');
  expect(contentText(turn.body.messages.at(-2)!.content)).toContain(`${NARRATOR_RUN}. The lamp turns`);
  release();
  const events = await hostile.text();
  expect(events).toContain('event: done');
}, 120_000);
