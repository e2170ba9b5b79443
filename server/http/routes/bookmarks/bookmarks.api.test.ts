// The bookmark API: list newest first, create with trimming and ownership checks, edit, delete,
// and every failure with its status and message. Another user's bookmark or story is a 404.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerUser, TestClient, type TestContext } from '@server/test/test-app';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

interface Started {
  storyId: number;
  messageId: number;
}

async function startStory(
  client: TestClient,
  prompt = 'A lighthouse keeper finds a door in the rock',
): Promise<Started> {
  const res = await client.post('/api/story/start', { prompt });
  expect(res.statusCode).toBe(200);
  return res.json() as Started;
}

async function createBookmark(client: TestClient, body: Record<string, unknown>) {
  return client.post('/api/bookmarks', body);
}

const patch = (client: TestClient, id: number | string, json: unknown) =>
  client.request({ method: 'PATCH', url: `/api/bookmarks/${id}`, json });
// Like the SPA, a write without a payload still sends an empty JSON object.
const remove = (client: TestClient, id: number | string) =>
  client.request({ method: 'DELETE', url: `/api/bookmarks/${id}`, json: {} });

describe('POST /api/bookmarks', () => {
  it('creates a bookmark with trimmed text and ISO dates, and an empty description becomes null', async () => {
    const { client } = await registerUser(ctx.app);
    const story = await startStory(client);
    const res = await createBookmark(client, {
      storyId: story.storyId,
      lastMessageId: story.messageId,
      title: '  The door  ',
      description: '   ',
    });
    expect(res.statusCode).toBe(201);
    const bookmark = res.json();
    expect(bookmark).toMatchObject({
      storyId: story.storyId,
      lastMessageId: story.messageId,
      title: 'The door',
      description: null,
    });
    expect(new Date(bookmark.createdAt).toISOString()).toBe(bookmark.createdAt);
    expect(new Date(bookmark.updatedAt).toISOString()).toBe(bookmark.updatedAt);

    const described = await createBookmark(client, {
      storyId: story.storyId,
      lastMessageId: story.messageId,
      title: 'Again',
      description: '  Before the storm  ',
    });
    expect(described.json().description).toBe('Before the storm');
    const withoutDescription = await createBookmark(client, {
      storyId: story.storyId,
      lastMessageId: story.messageId,
      title: 'Third',
    });
    expect(withoutDescription.json().description).toBeNull();
  });

  it('refuses a blank, missing or too long title with a message', async () => {
    const { client } = await registerUser(ctx.app);
    const story = await startStory(client);
    const base = { storyId: story.storyId, lastMessageId: story.messageId };
    for (const title of ['   ', undefined]) {
      const res = await createBookmark(client, { ...base, title });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        message: 'Please enter a title for your bookmark.',
        code: 'VALIDATION_ERROR',
      });
    }
    const long = await createBookmark(client, { ...base, title: 'x'.repeat(121) });
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toBe('The title must be at most 120 characters.');
    const longDescription = await createBookmark(client, { ...base, title: 'ok', description: 'y'.repeat(1001) });
    expect(longDescription.statusCode).toBe(400);
    expect(longDescription.json().message).toBe('The description must be at most 1000 characters.');
  });

  it('refuses ids that are not positive whole numbers', async () => {
    const { client } = await registerUser(ctx.app);
    const story = await startStory(client);
    const badStory = await createBookmark(client, { storyId: 'abc', lastMessageId: story.messageId, title: 't' });
    expect(badStory.statusCode).toBe(400);
    expect(badStory.json().message).toBe('Story id must be a number');
    const badMessage = await createBookmark(client, { storyId: story.storyId, lastMessageId: -3, title: 't' });
    expect(badMessage.statusCode).toBe(400);
    expect(badMessage.json().message).toBe('Message id must be a number');
  });

  it("answers 404 for another user's story, a missing story, or a message of another story", async () => {
    const owner = await registerUser(ctx.app);
    const other = await registerUser(ctx.app);
    const ownersStory = await startStory(owner.client);
    const othersStory = await startStory(other.client);

    const foreign = await createBookmark(other.client, {
      storyId: ownersStory.storyId,
      lastMessageId: ownersStory.messageId,
      title: 'Mine now',
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({ message: 'Story not found', code: 'NOT_FOUND' });

    const missing = await createBookmark(owner.client, { storyId: 999_999, lastMessageId: 1, title: 't' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe('Story not found');

    const wrongMessage = await createBookmark(owner.client, {
      storyId: ownersStory.storyId,
      lastMessageId: othersStory.messageId,
      title: 't',
    });
    expect(wrongMessage.statusCode).toBe(404);
    expect(wrongMessage.json()).toEqual({ message: 'Message not found in this story', code: 'NOT_FOUND' });
  });

  it('needs a session', async () => {
    const res = await createBookmark(new TestClient(ctx.app), { storyId: 1, lastMessageId: 1, title: 't' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: 'Authentication required', code: 'UNAUTHENTICATED' });
  });
});

describe('GET /api/bookmarks', () => {
  it("lists only the user's bookmarks, newest first, as a JSON array", async () => {
    const { client } = await registerUser(ctx.app);
    const other = await registerUser(ctx.app);
    const story = await startStory(client);
    const otherStory = await startStory(other.client);
    await createBookmark(other.client, {
      storyId: otherStory.storyId,
      lastMessageId: otherStory.messageId,
      title: 'Not yours',
    });
    for (const title of ['First', 'Second', 'Third']) {
      await createBookmark(client, { storyId: story.storyId, lastMessageId: story.messageId, title });
      ctx.clock.advance(1000);
    }
    const res = await client.get('/api/bookmarks');
    expect(res.statusCode).toBe(200);
    const list = res.json();
    expect(Array.isArray(list)).toBe(true);
    expect(list.map((b: { title: string }) => b.title)).toEqual(['Third', 'Second', 'First']);
    expect(Object.keys(list[0]).sort()).toEqual([
      'createdAt',
      'description',
      'id',
      'lastMessageId',
      'storyId',
      'title',
      'updatedAt',
    ]);
  });

  it('is empty for a new user, and needs a session', async () => {
    const { client } = await registerUser(ctx.app);
    expect((await client.get('/api/bookmarks')).json()).toEqual([]);
    const guest = await new TestClient(ctx.app).get('/api/bookmarks');
    expect(guest.statusCode).toBe(401);
    expect(guest.json().message).toBe('Authentication required');
  });

  it('keeps its reply through Try again, and points at the nearest earlier shown message once undo sets it aside', async () => {
    const { client } = await registerUser(ctx.app);
    const story = await startStory(client);
    const turn = (await client.post(`/api/story/${story.storyId}/continue`, { message: 'I open the door' })).json() as {
      messageId: number;
    };
    await createBookmark(client, { storyId: story.storyId, lastMessageId: turn.messageId, title: 'Before the retry' });
    const retried = (await client.post(`/api/story/${story.storyId}/retry`, {})).json() as { messageId: number };
    expect(retried.messageId).toBe(turn.messageId);
    expect((await client.get('/api/bookmarks')).json()[0].lastMessageId).toBe(turn.messageId);
    // Undo sets the action and its reply aside: the bookmark resolves to the opening before them.
    await client.post(`/api/story/${story.storyId}/undo`);
    const [bookmark] = (await client.get('/api/bookmarks')).json();
    expect(bookmark.lastMessageId).toBe(story.messageId);
  });

  it("disappears with its story's owner", async () => {
    const { client, id } = await registerUser(ctx.app);
    const story = await startStory(client);
    await createBookmark(client, { storyId: story.storyId, lastMessageId: story.messageId, title: 'Gone soon' });
    await ctx.database.db.execute(`delete from users where id = ${Number(id)}`);
    const result = (await ctx.database.db.execute(
      `select count(*)::int as count from bookmarks where story_id = ${story.storyId}`,
    )) as unknown as { rows: Array<{ count: number }> };
    const [{ count }] = result.rows;
    expect(count).toBe(0);
  });
});

describe('PATCH /api/bookmarks/:id', () => {
  it('changes the title and description, trimmed, and moves updatedAt', async () => {
    const { client } = await registerUser(ctx.app);
    const story = await startStory(client);
    const created = (
      await createBookmark(client, {
        storyId: story.storyId,
        lastMessageId: story.messageId,
        title: 'Old',
        description: 'Old text',
      })
    ).json();
    ctx.clock.advance(5000);
    const res = await patch(client, created.id, { title: '  New  ', description: '  New text ' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: created.id,
      title: 'New',
      description: 'New text',
      createdAt: created.createdAt,
    });
    expect(Date.parse(res.json().updatedAt)).toBeGreaterThan(Date.parse(created.updatedAt));

    const cleared = await patch(client, created.id, { title: 'New', description: '' });
    expect(cleared.json().description).toBeNull();
    const titleOnly = await patch(client, created.id, { title: 'Only title' });
    expect(titleOnly.json()).toMatchObject({ title: 'Only title', description: null });
  });

  it('refuses a blank title, an empty change and a bad id with messages', async () => {
    const { client } = await registerUser(ctx.app);
    const story = await startStory(client);
    const created = (
      await createBookmark(client, { storyId: story.storyId, lastMessageId: story.messageId, title: 'Keep' })
    ).json();
    const blank = await patch(client, created.id, { title: '  ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().message).toBe('Please enter a title for your bookmark.');
    const empty = await patch(client, created.id, {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe('Send a new title or description to update the bookmark.');
    const badId = await patch(client, 'abc', { title: 'x' });
    expect(badId.statusCode).toBe(400);
    expect(badId.json().message).toBe('Bookmark id must be a number');
    expect((await client.get('/api/bookmarks')).json()[0].title).toBe('Keep');
  });

  it("answers 404 for another user's bookmark and a missing one, leaving it unchanged", async () => {
    const owner = await registerUser(ctx.app);
    const other = await registerUser(ctx.app);
    const story = await startStory(owner.client);
    const created = (
      await createBookmark(owner.client, { storyId: story.storyId, lastMessageId: story.messageId, title: 'Mine' })
    ).json();
    const foreign = await patch(other.client, created.id, { title: 'Hijacked' });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({ message: 'Bookmark not found', code: 'NOT_FOUND' });
    expect((await patch(owner.client, 99_999_999_999, { title: 'x' })).statusCode).toBe(404);
    expect((await owner.client.get('/api/bookmarks')).json()[0].title).toBe('Mine');
    const guest = await patch(new TestClient(ctx.app), created.id, { title: 'x' });
    expect(guest.statusCode).toBe(401);
  });
});

describe('DELETE /api/bookmarks/:id', () => {
  it('deletes the bookmark once; a second delete is a 404', async () => {
    const { client } = await registerUser(ctx.app);
    const story = await startStory(client);
    const created = (
      await createBookmark(client, { storyId: story.storyId, lastMessageId: story.messageId, title: 'Bye' })
    ).json();
    const res = await remove(client, created.id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });
    expect((await client.get('/api/bookmarks')).json()).toEqual([]);
    const again = await remove(client, created.id);
    expect(again.statusCode).toBe(404);
    expect(again.json().message).toBe('Bookmark not found');
  });

  it("cannot delete another user's bookmark, and needs a session", async () => {
    const owner = await registerUser(ctx.app);
    const other = await registerUser(ctx.app);
    const story = await startStory(owner.client);
    const created = (
      await createBookmark(owner.client, { storyId: story.storyId, lastMessageId: story.messageId, title: 'Safe' })
    ).json();
    expect((await remove(other.client, created.id)).statusCode).toBe(404);
    const guest = await remove(new TestClient(ctx.app), created.id);
    expect(guest.statusCode).toBe(401);
    expect(guest.json().message).toBe('Authentication required');
    expect((await owner.client.get('/api/bookmarks')).json()).toHaveLength(1);
  });
});
