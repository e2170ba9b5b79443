// Sharing API: owner-only sharing with a validated title, snapshot semantics (a link keeps the turns
// it was made with), stopping a share, unknown ids, the built-in sample, a public payload without
// account data, caching (ETag, 304, Cache-Control) and the per-IP read limit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_STORY } from '@shared/sample-story';
import { ACTIVITY_WRITE_INTERVAL_MS } from '@server/domains/account/sessions';
import {
  createTestApp,
  registerUser,
  TestClient,
  type TestClient as Client,
  type TestContext,
} from '@server/test/test-app';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

const PREMISE = 'A cartographer follows a map that redraws itself every night';
const NOT_FOUND = { message: 'Story not found or has been removed by its creator', code: 'NOT_FOUND' };

async function startStory(client: Client): Promise<number> {
  const res = await client.post('/api/story/start', { prompt: PREMISE });
  expect(res.statusCode).toBe(200);
  return res.json().storyId as number;
}

async function share(client: Client, storyId: number, title = 'The Moving Map'): Promise<string> {
  const res = await client.post(`/api/story/${storyId}/share`, { title });
  expect(res.statusCode).toBe(201);
  return res.json().shareId as string;
}

describe('POST /api/story/:storyId/share', () => {
  it('gives the owner an unguessable link that a logged-out reader can open', async () => {
    const owner = await registerUser(ctx.app);
    const storyId = await startStory(owner.client);
    const res = await owner.client.post(`/api/story/${storyId}/share`, { title: '  The Moving Map  ' });
    expect(res.statusCode).toBe(201);
    expect(Object.keys(res.json())).toEqual(['shareId']);
    const { shareId } = res.json();
    expect(shareId).toMatch(/^[A-Za-z0-9_-]{16}$/);
    const state = (await owner.client.get(`/api/story/${storyId}/current-state`)).json();

    const read = await new TestClient(ctx.app, '10.1.0.1').get(`/api/shared/${shareId}`);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual({
      shareId,
      title: 'The Moving Map',
      messages: state.messages.map((m: { role: string; content: string }) => ({ role: m.role, content: m.content })),
    });
    expect(read.json().messages[0].content).toBe(PREMISE);
  });

  it('puts no account data in the public payload', async () => {
    const owner = await registerUser(ctx.app);
    const storyId = await startStory(owner.client);
    const shareId = await share(owner.client, storyId);
    const read = await new TestClient(ctx.app, '10.1.0.2').get(`/api/shared/${shareId}`);
    const body = read.body;
    expect(body).not.toContain(owner.username);
    expect(body).not.toContain(owner.email);
    expect(Object.keys(read.json()).sort()).toEqual(['messages', 'shareId', 'title']);
    for (const message of read.json().messages) expect(Object.keys(message).sort()).toEqual(['content', 'role']);
    expect(body).not.toContain(`"storyId":${storyId}`);
    expect(read.headers['set-cookie']).toBeUndefined();
  });

  it('reads a link the same for a signed-in reader: the session is neither read nor refreshed, the answer stays public', async () => {
    const owner = await registerUser(ctx.app);
    const shareId = await share(owner.client, await startStory(owner.client));
    // Past the point where any account request slides the session (and sets its cookie again).
    ctx.clock.advance(ACTIVITY_WRITE_INTERVAL_MS + 1);
    const read = await owner.client.get(`/api/shared/${shareId}`);
    expect(read.statusCode).toBe(200);
    expect(read.headers['set-cookie']).toBeUndefined();
    expect(read.headers['cache-control']).toBe('public, max-age=60');
    const account = await owner.client.get('/api/user');
    expect(account.statusCode).toBe(200);
    expect(String(account.headers['set-cookie'])).toContain('tw_session=');
  });

  it('makes a new id every time', async () => {
    const owner = await registerUser(ctx.app);
    const storyId = await startStory(owner.client);
    const ids = new Set([
      await share(owner.client, storyId),
      await share(owner.client, storyId),
      await share(owner.client, storyId),
    ]);
    expect(ids.size).toBe(3);
  });

  it('refuses a blank, missing or too long title', async () => {
    const owner = await registerUser(ctx.app);
    const storyId = await startStory(owner.client);
    for (const body of [{ title: '   ' }, {}, { title: 42 }]) {
      const res = await owner.client.post(`/api/story/${storyId}/share`, body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ message: 'Please enter a title for your story.', code: 'VALIDATION_ERROR' });
    }
    const long = await owner.client.post(`/api/story/${storyId}/share`, { title: 'x'.repeat(121) });
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toBe('The title must be at most 120 characters.');
    expect((await owner.client.post(`/api/story/${storyId}/share`, { title: 'x'.repeat(120) })).statusCode).toBe(201);
  });

  it("is for the owner only: another player's or a missing story is 404, a visitor 401", async () => {
    const owner = await registerUser(ctx.app);
    const other = await registerUser(ctx.app);
    const storyId = await startStory(owner.client);
    const foreign = await other.client.post(`/api/story/${storyId}/share`, { title: 'Mine now' });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({ message: 'Story not found', code: 'NOT_FOUND' });
    const missing = await owner.client.post('/api/story/999999/share', { title: 'Nothing' });
    expect(missing.statusCode).toBe(404);
    const visitor = await new TestClient(ctx.app).post(`/api/story/${storyId}/share`, { title: 'Anyone' });
    expect(visitor.statusCode).toBe(401);
    expect(visitor.json()).toEqual({ message: 'Authentication required', code: 'UNAUTHENTICATED' });
    const badId = await owner.client.post('/api/story/abc/share', { title: 'Bad' });
    expect(badId.statusCode).toBe(400);
    expect(badId.json().message).toBe('Story id must be a number');
  });
});

describe('snapshots', () => {
  it('keeps the turns a link was made with; sharing again shows the newer turns', async () => {
    const owner = await registerUser(ctx.app);
    const storyId = await startStory(owner.client);
    const first = await share(owner.client, storyId, 'Before the river');
    const turn = await owner.client.post(`/api/story/${storyId}/continue`, { message: 'I wade into the river' });
    expect(turn.statusCode).toBe(200);

    const reader = new TestClient(ctx.app, '10.1.0.3');
    const old = (await reader.get(`/api/shared/${first}`)).json();
    expect(old.title).toBe('Before the river');
    expect(old.messages).toHaveLength(2);
    expect(JSON.stringify(old)).not.toContain('I wade into the river');

    const second = await share(owner.client, storyId, 'After the river');
    const fresh = (await reader.get(`/api/shared/${second}`)).json();
    expect(fresh.messages).toHaveLength(4);
    expect(fresh.messages.slice(2)).toEqual([
      { role: 'user', content: 'I wade into the river' },
      { role: 'assistant', content: turn.json().message },
    ]);
    // The first link is unchanged by the second share.
    expect((await reader.get(`/api/shared/${first}`)).json()).toEqual(old);
  });
});

describe('DELETE /api/shared/:shareId', () => {
  it('lets the owner stop sharing; afterwards the link is 404 with the spec text', async () => {
    const owner = await registerUser(ctx.app);
    const other = await registerUser(ctx.app);
    const storyId = await startStory(owner.client);
    const shareId = await share(owner.client, storyId);
    const reader = new TestClient(ctx.app, '10.1.0.4');

    const foreign = await other.client.request({ method: 'DELETE', url: `/api/shared/${shareId}`, json: {} });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual(NOT_FOUND);
    const visitor = await reader.request({ method: 'DELETE', url: `/api/shared/${shareId}`, json: {} });
    expect(visitor.statusCode).toBe(401);
    expect((await reader.get(`/api/shared/${shareId}`)).statusCode).toBe(200);

    const stopped = await owner.client.request({ method: 'DELETE', url: `/api/shared/${shareId}`, json: {} });
    expect(stopped.statusCode).toBe(200);
    expect(stopped.json()).toEqual({ success: true });
    const gone = await reader.get(`/api/shared/${shareId}`);
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toEqual(NOT_FOUND);
    const again = await owner.client.request({ method: 'DELETE', url: `/api/shared/${shareId}`, json: {} });
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual(NOT_FOUND);
  });
});

describe('GET /api/shared/:shareId', () => {
  it('answers 404 with the spec text for unknown and malformed ids', async () => {
    const reader = new TestClient(ctx.app, '10.1.0.5');
    for (const id of ['AAAAAAAAAAAAAAAA', 'no', 'x'.repeat(65), 'bad%20id', '..%2F..']) {
      const res = await reader.get(`/api/shared/${id}`);
      expect(res.statusCode, id).toBe(404);
      expect(res.json()).toEqual(NOT_FOUND);
      expect(res.headers['cache-control']).toBe('no-store');
    }
  });

  it('answers the built-in sample story for "test", cacheable for an hour', async () => {
    const res = await new TestClient(ctx.app, '10.1.0.6').get('/api/shared/test');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(SAMPLE_STORY);
    expect(res.json().title).toMatch(/^Sample Story: /);
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
  });

  it('is cacheable: an ETag, a short public max-age, and 304 when the ETag still matches', async () => {
    const owner = await registerUser(ctx.app);
    const storyId = await startStory(owner.client);
    const shareId = await share(owner.client, storyId);
    const reader = new TestClient(ctx.app, '10.1.0.7');
    const first = await reader.get(`/api/shared/${shareId}`);
    expect(first.headers['cache-control']).toBe('public, max-age=60');
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    const cached = await reader.request({
      method: 'GET',
      url: `/api/shared/${shareId}`,
      headers: { 'if-none-match': `W/${etag}` },
    });
    expect(cached.statusCode).toBe(304);
    expect(cached.body).toBe('');
    const stale = await reader.request({
      method: 'GET',
      url: `/api/shared/${shareId}`,
      headers: { 'if-none-match': '"something-else"' },
    });
    expect(stale.statusCode).toBe(200);
    // Another link to the same turns is another snapshot with its own tag.
    const other = await reader.get(`/api/shared/${await share(owner.client, storyId)}`);
    expect(other.headers.etag).not.toBe(etag);
  });
});

describe('the per-IP read limit', () => {
  it('refuses reads past the limit with 429 and Retry-After, per IP, for a minute', async () => {
    const limited = await createTestApp({ sharedReadsPerMinute: 3 });
    try {
      const reader = new TestClient(limited.app, '10.2.0.1');
      for (let i = 0; i < 3; i += 1) expect((await reader.get('/api/shared/test')).statusCode).toBe(200);
      const blocked = await reader.get('/api/shared/test');
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json()).toEqual({
        message: 'Too many shared story requests. Please wait a minute and try again.',
        code: 'RATE_LIMITED',
      });
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
      expect((await new TestClient(limited.app, '10.2.0.2').get('/api/shared/test')).statusCode).toBe(200);
      limited.clock.advance(61_000);
      expect((await reader.get('/api/shared/test')).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
