// The story API with the builtin narrator: start, continue (JSON and SSE), retry, current state,
// recovery and titles; validation, ownership and the one-generation-per-story rule.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEnglish, type English } from '@server/ai/llm/builtin/action';
import { composeReply, type TurnSeed } from '@server/ai/llm/builtin/narrator';
import { fallbackTitle } from '@server/ai/llm/titles';
import { createRepositories } from '@server/db/repositories';
import { createTestApp, registerUser, TestClient, type TestContext } from '@server/test/test-app';
import { parseSse } from '@server/test/sse';

let ctx: TestContext;
let english: English;
beforeAll(async () => {
  ctx = await createTestApp();
  english = await loadEnglish();
});
afterAll(() => ctx.close());

const PREMISE = 'A detective named Ada Quill hunts a missing heiress through 1920s London';

/** The reply the builtin narrator gives with the server's defaults (a new player's preferences). */
function predict(seed: TurnSeed): string {
  return composeReply(seed, english);
}

/** What the server passes as the turns before a first action: the premise and its opening. */
function afterOpening(opening: string): TurnSeed['recent'] {
  return [
    { role: 'user', content: PREMISE },
    { role: 'assistant', content: opening },
  ];
}

async function start(client: TestClient, prompt = PREMISE) {
  const res = await client.post('/api/story/start', { prompt });
  expect(res.statusCode).toBe(200);
  return res.json() as { storyId: number; messageId: number; message: string };
}

describe('POST /api/story/start', () => {
  it('creates the story with the premise and the narrator opening, predictable from story, turn and attempt', async () => {
    const { client } = await registerUser(ctx.app);
    const started = await start(client);
    expect(started.message).toBe(
      predict({ storyId: started.storyId, turn: 0, attempt: 0, premise: PREMISE, action: PREMISE }),
    );
    const state = (await client.get(`/api/story/${started.storyId}/current-state`)).json();
    expect(
      state.messages.map((m: { role: string; isInitialMessage: boolean }) => [m.role, m.isInitialMessage]),
    ).toEqual([
      ['user', true],
      ['assistant', false],
    ]);
    expect(state.messages[0].content).toBe(PREMISE);
    expect(state.replying).toBe(false);
    expect(state.messages[1]).toMatchObject({ messageId: started.messageId, content: started.message });
    expect(Date.parse(state.messages[1].createdAt)).not.toBeNaN();
  });

  it('trims the premise and refuses a blank or too long one with a message', async () => {
    const { client } = await registerUser(ctx.app);
    const blank = await client.post('/api/story/start', { prompt: '   ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json()).toMatchObject({ message: 'Please describe your scenario.', code: 'VALIDATION_ERROR' });
    const long = await client.post('/api/story/start', { prompt: 'x'.repeat(4001) });
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toBe('Your scenario must be at most 4000 characters.');
    const missing = await client.post('/api/story/start', {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe('Please describe your scenario.');
    expect((await client.post('/api/story/start', { prompt: 'y'.repeat(4000) })).statusCode).toBe(200);
  });

  it('needs a session', async () => {
    const res = await new TestClient(ctx.app).post('/api/story/start', { prompt: PREMISE });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: 'Authentication required', code: 'UNAUTHENTICATED' });
  });
});

describe('POST /api/story/:id/continue', () => {
  it('answers the action in second person, reusing its verb and object, and keeps story order', async () => {
    const { client } = await registerUser(ctx.app);
    const { storyId, message: opening } = await start(client);
    const res = await client.post(`/api/story/${storyId}/continue`, { message: '  I open the rusty door  ' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.message).toBe(
      predict({
        storyId,
        turn: 1,
        attempt: 0,
        premise: PREMISE,
        action: 'I open the rusty door',
        recent: afterOpening(opening),
      }),
    );
    expect(body.message.startsWith('You open the rusty door.')).toBe(true);
    const state = (await client.get(`/api/story/${storyId}/current-state`)).json();
    expect(state.messages.map((m: { content: string }) => m.content).slice(2)).toEqual([
      'I open the rusty door',
      body.message,
    ]);
    expect(state.messages.at(-1).messageId).toBe(body.messageId);
  });

  it("takes text that looks like a tokenizer's control token as plain text, in a premise and an action", async () => {
    const { client } = await registerUser(ctx.app);
    const { storyId } = await start(client, 'A story about the <|endoftext|> marker and <|im_start|> tags');
    const res = await client.post(`/api/story/${storyId}/continue`, { message: 'I write <|endoftext|> on the wall' });
    expect(res.statusCode).toBe(200);
    const state = (await client.get(`/api/story/${storyId}/current-state`)).json();
    expect(state.messages.at(-2).content).toBe('I write <|endoftext|> on the wall');
  });

  it('refuses a blank or too long action with a message', async () => {
    const { client } = await registerUser(ctx.app);
    const { storyId } = await start(client);
    const blank = await client.post(`/api/story/${storyId}/continue`, { message: ' \n ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().message).toBe('Please describe what you would like to do.');
    const long = await client.post(`/api/story/${storyId}/continue`, { message: 'a'.repeat(2001) });
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toBe('Your action must be at most 2000 characters.');
  });

  it('streams delta events in order, then done with the saved reply', async () => {
    const { client } = await registerUser(ctx.app);
    const { storyId, message: opening } = await start(client);
    const res = await client.request({
      method: 'POST',
      url: `/api/story/${storyId}/continue`,
      headers: { accept: 'text/event-stream' },
      json: { message: 'I follow the footprints' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/event-stream');
    const events = parseSse(res.body);
    expect(events[0]).toEqual({ event: 'story', data: { storyId } });
    const deltas = events.filter((e) => e.event === 'delta');
    // The first words alone, the rest gathered (stream.test.ts covers the pacing).
    expect(deltas.length).toBeGreaterThanOrEqual(2);
    const done = events.at(-1);
    expect(done?.event).toBe('done');
    const expected = predict({
      storyId,
      turn: 1,
      attempt: 0,
      premise: PREMISE,
      action: 'I follow the footprints',
      recent: afterOpening(opening),
    });
    expect(deltas.map((e) => (e.data as { text: string }).text).join('')).toBe(expected);
    const saved = (await client.get(`/api/story/${storyId}/current-state`)).json().messages.at(-1);
    // What the reply cost rides on `done` and stays with the reply: one call, at the spec's $4 a million.
    expect(done?.data).toEqual({ storyId, messageId: saved.messageId, message: expected, usage: saved.usage });
    expect(saved.usage).toMatchObject({ calls: 1 });
    expect(saved.usage.outputTokens).toBeGreaterThan(0);
    expect(saved.usage.costUsd).toBeCloseTo((saved.usage.inputTokens + saved.usage.outputTokens) * 4e-6, 6);
  });

  it('names a new story in its first event, before any text of the opening', async () => {
    const { client } = await registerUser(ctx.app);
    const res = await client.request({
      method: 'POST',
      url: '/api/story/start',
      headers: { accept: 'text/event-stream' },
      json: { prompt: PREMISE },
    });
    const events = parseSse(res.body);
    expect(events[0].event).toBe('story');
    expect(events[1].event).toBe('delta');
    const done = events.at(-1)?.data as { storyId: number };
    expect(events[0].data).toEqual({ storyId: done.storyId });
  });

  it('answers errors found before streaming as plain JSON even when SSE was asked for', async () => {
    const { client } = await registerUser(ctx.app);
    const res = await client.request({
      method: 'POST',
      url: '/api/story/999999/continue',
      headers: { accept: 'text/event-stream' },
      json: { message: 'hello' },
    });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.json()).toEqual({ message: 'Story not found', code: 'NOT_FOUND' });
  });
});

describe('POST /api/story/:id/retry', () => {
  it('shows the next attempt as a new version of the same reply, keeps the first, and never duplicates the action', async () => {
    const { client } = await registerUser(ctx.app);
    const { storyId, message: opening } = await start(client);
    const first = (await client.post(`/api/story/${storyId}/continue`, { message: 'I knock twice' })).json();
    const retried = await client.post(`/api/story/${storyId}/retry`);
    expect(retried.statusCode).toBe(200);
    const body = retried.json();
    expect(body.message).toBe(
      predict({
        storyId,
        turn: 1,
        attempt: 1,
        premise: PREMISE,
        action: 'I knock twice',
        recent: afterOpening(opening),
      }),
    );
    expect(body.message).not.toBe(first.message);
    expect(body.messageId).toBe(first.messageId);
    expect([body.version, body.versions]).toEqual([2, 2]);
    const messages = (await client.get(`/api/story/${storyId}/current-state`)).json().messages;
    expect([messages[3].version, messages[3].versions]).toEqual([2, 2]);
    const versions = (await client.get(`/api/story/${storyId}/messages/${first.messageId}/versions`)).json().versions;
    expect(versions.map((v: { kind: string; content: string }) => [v.kind, v.content])).toEqual([
      ['original', first.message],
      ['alternative', body.message],
    ]);
    expect(messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(messages.filter((m: { content: string }) => m.content === 'I knock twice')).toHaveLength(1);
    expect(messages[3].content).toBe(body.message);
  });

  it('streams too', async () => {
    const { client } = await registerUser(ctx.app);
    const { storyId } = await start(client);
    const res = await client.request({
      method: 'POST',
      url: `/api/story/${storyId}/retry`,
      headers: { accept: 'text/event-stream' },
      json: {},
    });
    const events = parseSse(res.body);
    expect(events.at(-1)?.event).toBe('done');
    expect((events.at(-1)?.data as { message: string }).message).toBe(
      predict({ storyId, turn: 0, attempt: 1, premise: PREMISE, action: PREMISE }),
    );
  });
});

describe('ownership and ids', () => {
  it("answers 404 for another user's story on every endpoint, and 400 for a non-numeric id", async () => {
    const owner = await registerUser(ctx.app);
    const other = await registerUser(ctx.app);
    const { storyId, messageId } = await start(owner.client);
    const notFound = { message: 'Story not found', code: 'NOT_FOUND' };
    const calls = [
      () => other.client.post(`/api/story/${storyId}/continue`, { message: 'steal it' }),
      () => other.client.post(`/api/story/${storyId}/retry`),
      () => other.client.get(`/api/story/${storyId}/current-state`),
      () => other.client.get(`/api/story/${storyId}/recover?messageId=${messageId}`),
      () => other.client.get(`/api/story/${storyId}/generate-title`),
    ];
    for (const call of calls) {
      const res = await call();
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(notFound);
    }
    for (const path of ['continue', 'retry']) {
      const res = await owner.client.post(`/api/story/abc/${path}`, { message: 'x' });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ message: 'Story id must be a number', code: 'VALIDATION_ERROR' });
    }
    for (const path of ['current-state', 'recover', 'generate-title']) {
      const res = await owner.client.get(`/api/story/12x/${path}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('Story id must be a number');
    }
    const huge = await owner.client.get('/api/story/99999999999/current-state');
    expect(huge.statusCode).toBe(404);
    // The owner's story is untouched by the other user's attempts.
    expect((await owner.client.get(`/api/story/${storyId}/current-state`)).json().messages).toHaveLength(2);
  });
});

describe('GET /api/story/:id/current-state', () => {
  it('sends any character as UTF-8 under a true Content-Length, and each time as Date.toISOString writes it', async () => {
    const { client } = await registerUser(ctx.app);
    const premise = 'The dragon’s “last” café — 🐉 at midnight';
    const { storyId } = await start(client, premise);
    // PostgreSQL keeps microseconds; the answer shows milliseconds, cut as a JavaScript Date cuts them.
    await ctx.database.executeSql(
      "update story_messages set created_at = '2026-11-25 10:00:00.123789+00' where story_id = $1 and role = 'user'",
      [storyId],
    );
    const res = await client.get(`/api/story/${storyId}/current-state`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['content-length']).toBe(String(res.rawPayload.length));
    const state = JSON.parse(res.rawPayload.toString('utf8'));
    expect(state.messages[0]).toEqual({
      messageId: expect.any(Number),
      role: 'user',
      content: premise,
      createdAt: '2026-11-25T10:00:00.123Z',
      isInitialMessage: true,
    });
    const [, reply] = await createRepositories(ctx.database.db).stories.listMessages(storyId);
    expect(state.messages[1].createdAt).toBe(reply.createdAt.toISOString());
  });
});

describe('GET /api/story/:id/recover', () => {
  it('returns the messages, no images yet and the story with a title', async () => {
    const { client } = await registerUser(ctx.app);
    const { storyId, messageId } = await start(client);
    const res = await client.get(`/api/story/${storyId}/recover?messageId=${messageId}`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.messages).toHaveLength(2);
    expect(body.images).toEqual([]);
    expect(body.story).toEqual({ id: storyId, title: fallbackTitle(PREMISE), storyImage: null });
  });

  it('is 400 for a non-numeric messageId and 404 for a message of another story', async () => {
    const { client } = await registerUser(ctx.app);
    const a = await start(client);
    const b = await start(client);
    const bad = await client.get(`/api/story/${a.storyId}/recover?messageId=abc`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Message id must be a number');
    const foreign = await client.get(`/api/story/${a.storyId}/recover?messageId=${b.messageId}`);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({ message: 'Message not found in this story', code: 'NOT_FOUND' });
  });
});

describe('GET /api/story/:id/recover after Try again', () => {
  it('recovers a story bookmarked at a reply that Try again gave an alternative, showing the alternative', async () => {
    const { client } = await registerUser(ctx.app);
    const { storyId, messageId: bookmarked } = await start(client);
    const retry = await client.post(`/api/story/${storyId}/retry`, {});
    expect(retry.statusCode).toBe(200);
    expect(retry.json().messageId).toBe(bookmarked);
    const res = await client.get(`/api/story/${storyId}/recover?messageId=${bookmarked}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().messages).toHaveLength(2);
    expect(res.json().messages[1]).toMatchObject({
      messageId: bookmarked,
      content: retry.json().message,
      version: 2,
      versions: 2,
    });
  });
});

describe('GET /api/story/:id/generate-title', () => {
  it('names the story from its premise with the builtin narrator, at most 60 characters, and keeps it', async () => {
    const { client, id } = await registerUser(ctx.app);
    const { storyId } = await start(client, `${'Grand '.repeat(20)}adventure`);
    const res = await client.get(`/api/story/${storyId}/generate-title`);
    expect(res.statusCode).toBe(200);
    const { title } = res.json();
    expect(title.length).toBeLessThanOrEqual(60);
    expect(title).toBe('Grand Grand Grand Grand Grand Grand Grand');
    expect((await client.get(`/api/story/${storyId}/generate-title`)).json().title).toBe(title);
    const rows = await createRepositories(ctx.database.db).usage.listForStory(storyId);
    expect(rows.filter((r) => r.kind === 'title')).toHaveLength(1);
    expect(rows.every((r) => r.userId === id && r.provider === 'builtin' && r.model === 'taleweaver-demo')).toBe(true);
  });
});
