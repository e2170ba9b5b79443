// Scale-out, end to end: two real server processes (server/main.ts) on one PostgreSQL database and
// one Redis, as an operator runs several instances. A session made on one is accepted by the other
// and a logout on one ends it on both; a reply being written on one makes the other answer 409; a
// share stopped on one is the spec's 404 on the other within a second (each keeps its own copy);
// the per-IP limits are counted once for both; and a picture job whose instance is killed (SIGKILL)
// mid-painting is finished by the other. The fakes (narrator, one painter per instance) run here.
//
// A throwaway database is made for the two instances (CREATE DATABASE tw_scale_…, dropped after),
// and their Redis keys and channels carry a prefix of their own. The abandoned job is found fast
// because IMAGE_TIMEOUT_MS and IMAGE_JOB_GRACE_SECONDS are short here (expiry after 3 + 1 s, looked
// for every second). PostgreSQL only: the embedded database is one process's (vitest.config.ts).
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentText, startFakeLlmServer, type FakeLlmServer, type RecordedRequest } from './test/fake-llm-server';
import { startFakeImageServer, type FakeImageServer } from './test/fake-image-server';
import { databaseUrlFor } from './test/global-setup';
import { registerOverHttp, spawnServer, stopServer } from './test/spawn-server';

const BASE_DATABASE_URL = process.env.TEST_DATABASE_URL;
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const run = randomBytes(4).toString('hex');
const DATABASE = `tw_scale_${run}`;
const KEY_PREFIX = `tw-test:scale-${run}:`;
const LLM_KEY = 'sk-scale-narrator';
const IMAGE_KEY = 'sk-scale-painter';
const USERNAME_CHECKS = 3;
/** The action whose narrator call the fake holds until the test lets it answer. */
const HELD_ACTION = 'I hold the door and listen';

const NOT_SIGNED_IN = { message: 'Authentication required', code: 'UNAUTHENTICATED' };
const BUSY = {
  message: 'The narrator is still writing the last reply. Please wait for it to finish.',
  code: 'CONFLICT',
};
const SHARE_GONE = { message: 'Story not found or has been removed by its creator', code: 'NOT_FOUND' };
const TOO_MANY_CHECKS = {
  message: 'Too many username checks from this network. Please wait a minute and try again.',
  code: 'RATE_LIMITED',
};

interface Instance {
  name: 'A' | 'B';
  child: ChildProcess;
  base: string;
  painter: FakeImageServer;
}

let admin: pg.Client;
let narrator: FakeLlmServer;
const instances: Instance[] = [];
let releaseHeld: () => void = () => {};
/** Paint requests across both painters: the first one hangs (its instance is killed holding it), the rest answer. */
let paintRequests = 0;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const json = (cookie: string) => ({ 'content-type': 'application/json', cookie });
const send = (base: string, method: string, path: string, cookie: string, body: unknown = {}) =>
  fetch(`${base}${path}`, { method, headers: json(cookie), body: JSON.stringify(body) });
const isHeld = (request: RecordedRequest) =>
  contentText(request.body.messages.at(-1)?.content ?? '').includes(HELD_ACTION);

async function answer(res: Response): Promise<[number, unknown]> {
  const text = await res.text();
  return [res.status, text ? JSON.parse(text) : null];
}

/** Polls `check` until it holds or `limitMs` has passed; true when it held. */
async function within(limitMs: number, check: () => Promise<boolean>, everyMs = 25): Promise<boolean> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() >= deadline) return false;
    await sleep(everyMs);
  }
}

async function startInstance(name: 'A' | 'B'): Promise<Instance> {
  const painter = await startFakeImageServer({ apiKey: IMAGE_KEY });
  painter.fallback = () => (paintRequests++ === 0 ? { kind: 'hang' } : { kind: 'ok' });
  const server = spawnServer({
    DATABASE_URL: databaseUrlFor(BASE_DATABASE_URL as string, DATABASE),
    DATABASE_POOL_SIZE: '4',
    REDIS_URL,
    REDIS_KEY_PREFIX: KEY_PREFIX,
    LLM_PROVIDER: 'openai',
    LLM_BASE_URL: narrator.baseUrl,
    LLM_API_KEY: LLM_KEY,
    LLM_MODEL: 'fake-gpt',
    IMAGE_PROVIDER: 'openai',
    IMAGE_BASE_URL: painter.openaiBaseUrl,
    IMAGE_API_KEY: IMAGE_KEY,
    IMAGE_MODEL: 'gpt-image-1',
    IMAGE_TIMEOUT_MS: '3000',
    IMAGE_JOB_GRACE_SECONDS: '1',
    USERNAME_CHECKS_PER_MINUTE: String(USERNAME_CHECKS),
  });
  const instance = { name, child: server.child, base: '', painter };
  instances.push(instance);
  instance.base = `http://127.0.0.1:${await server.port}`;
  return instance;
}

describe.skipIf(!BASE_DATABASE_URL)('two instances on one PostgreSQL and one Redis', () => {
  let a: Instance;
  let b: Instance;
  let owner: { cookie: string; storyId: number; messageId: number; opening: string };

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: BASE_DATABASE_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${DATABASE}"`);
    narrator = await startFakeLlmServer({ apiKey: LLM_KEY });
    const held = new Promise<void>((resolve) => (releaseHeld = resolve));
    narrator.fallback = (request) => (isHeld(request) ? { kind: 'ok', hold: held } : { kind: 'ok' });
    // One after the other: the first migrates the new database, the second finds it migrated.
    a = await startInstance('A');
    b = await startInstance('B');
  }, 60_000);

  afterAll(async () => {
    releaseHeld();
    const running = instances.filter((i) => i.child.exitCode === null && i.child.signalCode === null);
    await Promise.all(running.map((i) => stopServer(i.child, 'SIGKILL')));
    await Promise.all([narrator?.close(), ...instances.map((i) => i.painter.close())]);
    if (admin) {
      await admin.query(`DROP DATABASE IF EXISTS "${DATABASE}" WITH (FORCE)`);
      await admin.end();
    }
    const redis = new Redis(REDIS_URL);
    const keys = await redis.keys(`${KEY_PREFIX}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  it('accepts a session made on A on B, and a logout on A ends it on both', async () => {
    const cookie = await registerOverHttp(a.base, 'sessionplayer', 'correct horse');
    const me = async (instance: Instance) => answer(await fetch(`${instance.base}/api/user`, { headers: { cookie } }));
    // B reads the session from the database and keeps it (for up to 10 s): only the news of the
    // logout, over Redis, can make it forget it sooner.
    expect(await me(b)).toEqual([200, expect.objectContaining({ username: 'sessionplayer' })]);
    expect(await me(a)).toEqual([200, expect.objectContaining({ username: 'sessionplayer' })]);

    expect(await answer(await send(a.base, 'POST', '/api/logout', cookie))).toEqual([200, { success: true }]);
    expect(await me(a)).toEqual([401, NOT_SIGNED_IN]);
    // The news reaches B over pub/sub, a moment after A answered.
    expect(await within(1000, async () => (await me(b))[0] === 401), 'B ended the session within 1 s').toBe(true);
    expect(await me(b)).toEqual([401, NOT_SIGNED_IN]);
  });

  it('answers 409 on B while A is writing a reply, and takes the next action once it is done', async () => {
    const cookie = await registerOverHttp(a.base, 'storyplayer', 'correct horse');
    const [startStatus, started] = (await answer(
      await send(a.base, 'POST', '/api/story/start', cookie, { prompt: 'A lighthouse keeper hears a knock below' }),
    )) as [number, { storyId: number; messageId: number; message: string }];
    expect(startStatus).toBe(200);
    owner = { cookie, storyId: started.storyId, messageId: started.messageId, opening: started.message };

    const streaming = await fetch(`${a.base}/api/story/${owner.storyId}/continue`, {
      method: 'POST',
      headers: { ...json(cookie), accept: 'text/event-stream' },
      body: JSON.stringify({ message: HELD_ACTION }),
    });
    expect(streaming.status).toBe(200);
    // The turn on A has reached the narrator, which holds its answer: the reply is being written.
    expect(await within(10_000, async () => narrator.requests.some(isHeld)), 'the turn reached the narrator').toBe(
      true,
    );

    const onB = await send(b.base, 'POST', `/api/story/${owner.storyId}/continue`, cookie, {
      message: 'I open the door',
    });
    expect(await answer(onB)).toEqual([409, BUSY]);
    // Deleting the story is refused too while its reply is written.
    expect(await answer(await send(b.base, 'DELETE', `/api/story/${owner.storyId}`, cookie))).toEqual([409, BUSY]);

    releaseHeld();
    expect(await streaming.text()).toContain('event: done');
    const next = await send(b.base, 'POST', `/api/story/${owner.storyId}/continue`, cookie, {
      message: 'I open the door',
    });
    const [nextStatus, nextReply] = (await answer(next)) as [number, { storyId: number; message: string }];
    expect([nextStatus, nextReply.storyId, typeof nextReply.message]).toEqual([200, owner.storyId, 'string']);
  });

  it('answers 404 on B within a second of the share being stopped on A', async () => {
    const [shareStatus, shared] = (await answer(
      await send(a.base, 'POST', `/api/story/${owner.storyId}/share`, owner.cookie, { title: 'The Knock Below' }),
    )) as [number, { shareId: string }];
    expect(shareStatus).toBe(201);
    const read = async (instance: Instance) => answer(await fetch(`${instance.base}/api/shared/${shared.shareId}`));
    // Both instances read it, so both keep the snapshot in memory.
    for (const instance of [a, b]) {
      const [status, story] = (await read(instance)) as [number, { shareId: string; title: string }];
      expect([status, story.shareId, story.title]).toEqual([200, shared.shareId, 'The Knock Below']);
    }

    expect(await answer(await send(a.base, 'DELETE', `/api/shared/${shared.shareId}`, owner.cookie))).toEqual([
      200,
      { success: true },
    ]);
    expect(await read(a)).toEqual([404, SHARE_GONE]);
    expect(await within(1000, async () => (await read(b))[0] === 404), 'B dropped the share within 1 s').toBe(true);
    expect(await read(b)).toEqual([404, SHARE_GONE]);
  });

  it('counts the per-IP limits once for both instances', async () => {
    const check = async (instance: Instance) => {
      const res = await fetch(`${instance.base}/api/check-username?username=nobodyyet`);
      return [res.status, await res.json(), res.headers.get('retry-after')];
    };
    // USERNAME_CHECKS allowed a minute from this address, wherever they land.
    expect([await check(a), await check(b), await check(a)]).toEqual(
      Array.from({ length: USERNAME_CHECKS }, () => [200, { available: true }, null]),
    );
    expect(await check(b)).toEqual([429, TOO_MANY_CHECKS, '60']);
    expect(await check(a)).toEqual([429, TOO_MANY_CHECKS, '60']);
  });

  it('finishes on the other instance a picture job whose instance was killed while painting it', async () => {
    const asked = await send(a.base, 'POST', `/api/story/message/${owner.messageId}/generate-image`, owner.cookie, {
      content: owner.opening,
      storyId: owner.storyId,
    });
    expect(await answer(asked)).toEqual([202, { imageMessageId: owner.messageId }]);
    // Whichever instance fetched the job (A, woken by its own send, almost always) holds the painter's
    // hanging request; that instance is killed, mid-job.
    expect(await within(10_000, async () => paintRequests > 0), 'the job reached a painter').toBe(true);
    const killed = instances.find((i) => i.painter.requests.length === 1) as Instance;
    const survivor = killed === a ? b : a;
    await stopServer(killed.child, 'SIGKILL');
    expect(await within(5000, async () => killed.painter.abandoned === 1), 'the kill cut the painting').toBe(true);

    // The job expires (timeout + grace), the survivor fails it into its one retry and paints it.
    const image = async () =>
      answer(
        await fetch(`${survivor.base}/api/story/message/${owner.messageId}/image`, {
          headers: { cookie: owner.cookie },
        }),
      );
    let status = 0;
    let body: unknown = null;
    for (let i = 0; i < 30 && status !== 200; i += 1) [status, body] = await image();
    expect(status).toBe(200);
    const picture = body as { image: string; thumbnail: string; alt: string };
    expect(picture.image).toMatch(/^\/api\/images\/[0-9a-f]+\.webp$/);
    const bytes = await fetch(`${survivor.base}${picture.image}`, { headers: { cookie: owner.cookie } });
    expect(bytes.status).toBe(200);
    expect(
      Buffer.from(await bytes.arrayBuffer())
        .subarray(8, 12)
        .toString(),
    ).toBe('WEBP');
    // Painted twice in all: the killed run and the survivor's retry.
    expect([killed.painter.requests.length, survivor.painter.requests.length, paintRequests]).toEqual([1, 1, 2]);
  });
});
