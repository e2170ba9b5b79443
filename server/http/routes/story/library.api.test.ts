// The story library API: the owner's stories newest played first with their turns and picture,
// paging and title search, renaming, deleting with bookmarks, shares and pictures, 409 while a
// reply is being written, 404 for another player's story, and every bad request's message.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settlePicture } from '@server/test/fake-painter';
import { registerUser, TestClient, type TestContext, createPaintingTestApp } from '@server/test/test-app';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createPaintingTestApp();
});
afterAll(() => ctx.close());

async function startStory(client: TestClient, prompt: string): Promise<{ storyId: number; messageId: number }> {
  const res = await client.post('/api/story/start', { prompt });
  expect(res.statusCode).toBe(200);
  return res.json();
}

async function play(client: TestClient, storyId: number, message: string) {
  const res = await client.post(`/api/story/${storyId}/continue`, { message });
  expect(res.statusCode).toBe(200);
  return res.json() as { messageId: number };
}

const rename = (client: TestClient, id: number | string, json: unknown) =>
  client.request({ method: 'PATCH', url: `/api/story/${id}`, json });
const remove = (client: TestClient, id: number | string) =>
  client.request({ method: 'DELETE', url: `/api/story/${id}`, json: {} });
const titles = (body: { stories: Array<{ title: string }> }) => body.stories.map((s) => s.title);

describe('GET /api/stories', () => {
  it('lists only the owner\u2019s stories, newest played first, with turns, dates and no picture when there is none', async () => {
    const { client } = await registerUser(ctx.app);
    const other = await registerUser(ctx.app);
    await startStory(other.client, 'Someone else entirely');
    const first = await startStory(client, 'A lighthouse keeper finds a door in the rock');
    ctx.clock.advance(1000);
    const second = await startStory(client, 'A courier crosses the salt flats at night');
    ctx.clock.advance(1000);
    // Playing the first story brings it to the top.
    await play(client, first.storyId, 'I open the door');
    await play(client, first.storyId, 'I go down the stairs');

    const res = await client.get('/api/stories');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ page: 1, limit: 12, total: 2 });
    expect(body.stories.map((s: { id: number }) => s.id)).toEqual([first.storyId, second.storyId]);
    expect(body.stories[0]).toMatchObject({ turns: 2, thumbnail: null, title: expect.any(String) });
    expect(body.stories[1]).toMatchObject({ turns: 0 });
    expect(new Date(body.stories[0].lastPlayedAt).getTime()).toBeGreaterThan(
      new Date(body.stories[0].createdAt).getTime(),
    );
    expect(new Date(body.stories[1].createdAt).toISOString()).toBe(body.stories[1].createdAt);
  });

  it('pages and searches by title, case-insensitively and with % and _ taken literally', async () => {
    const { client } = await registerUser(ctx.app);
    const names = ['Harbour lights', 'The harbour at dusk', 'Salt and iron', '100% Dragon', 'snake_case tales'];
    for (const [i, name] of names.entries()) {
      const { storyId } = await startStory(client, `Premise number ${i}`);
      expect((await rename(client, storyId, { title: name })).statusCode).toBe(200);
      ctx.clock.advance(1000);
    }
    const page1 = (await client.get('/api/stories?limit=2')).json();
    expect(page1).toMatchObject({ page: 1, limit: 2, total: 5 });
    expect(titles(page1)).toEqual(['snake_case tales', '100% Dragon']);
    const page3 = (await client.get('/api/stories?limit=2&page=3')).json();
    expect(titles(page3)).toEqual(['Harbour lights']);
    expect((await client.get('/api/stories?limit=2&page=9')).json()).toMatchObject({ stories: [], total: 5 });

    expect(titles((await client.get('/api/stories?q=HARBOUR')).json())).toEqual([
      'The harbour at dusk',
      'Harbour lights',
    ]);
    expect(titles((await client.get(`/api/stories?q=${encodeURIComponent('%')}`)).json())).toEqual(['100% Dragon']);
    expect(titles((await client.get('/api/stories?q=_')).json())).toEqual(['snake_case tales']);
    expect((await client.get('/api/stories?q=nothing%20like%20it')).json()).toMatchObject({ stories: [], total: 0 });
    // A story not titled yet is found by the premise its title is made from.
    const { storyId } = await startStory(client, 'Zeppelins over the glacier');
    const found = (await client.get('/api/stories?q=zeppelin')).json();
    expect(found.stories.map((s: { id: number }) => s.id)).toEqual([storyId]);
  });

  it('shows the story\u2019s first picture, small', async () => {
    const { client } = await registerUser(ctx.app);
    await client.post('/api/preferences', { imageGeneration: true });
    const started = await startStory(client, 'A night ferry to a drowned village');
    const picture = (await settlePicture(client, started.messageId)).json();
    const listed = (await client.get('/api/stories')).json();
    expect(listed.stories[0].thumbnail).toBe(picture.thumbnail);
    expect((await client.get(listed.stories[0].thumbnail)).statusCode).toBe(200);
  });

  it('refuses bad paging and long searches with a message, and visitors with 401', async () => {
    const { client } = await registerUser(ctx.app);
    for (const [query, message] of [
      ['page=0', 'Page must be a whole number from 1'],
      ['page=abc', 'Page must be a whole number from 1'],
      ['limit=51', 'Limit must be a whole number from 1 to 50'],
      ['limit=-1', 'Limit must be a whole number from 1 to 50'],
      [`q=${'x'.repeat(101)}`, 'Search at most 100 characters.'],
    ]) {
      const res = await client.get(`/api/stories?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR', message });
    }
    const visitor = await ctx.app.inject({ method: 'GET', url: '/api/stories' });
    expect(visitor.statusCode).toBe(401);
  });
});

describe('PATCH /api/story/{id}', () => {
  it('renames the owner\u2019s story (trimmed), which reads and shares then use', async () => {
    const { client } = await registerUser(ctx.app);
    const { storyId, messageId } = await startStory(client, 'A lighthouse keeper finds a door in the rock');
    const res = await rename(client, storyId, { title: '  The Door in the Rock  ' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: storyId, title: 'The Door in the Rock' });
    expect((await client.get(`/api/story/${storyId}/generate-title`)).json()).toEqual({
      title: 'The Door in the Rock',
    });
    expect((await client.get(`/api/story/${storyId}/recover?messageId=${messageId}`)).json().story.title).toBe(
      'The Door in the Rock',
    );
  });

  it('refuses a blank or long title, and another player\u2019s or a missing story is 404', async () => {
    const { client } = await registerUser(ctx.app);
    const other = await registerUser(ctx.app);
    const { storyId } = await startStory(client, 'A courier crosses the salt flats');
    for (const [json, message] of [
      [{ title: '   ' }, 'Please give the story a title.'],
      [{}, 'Please give the story a title.'],
      [{ title: 'x'.repeat(61) }, 'A title must be at most 60 characters.'],
    ] as const) {
      const res = await rename(client, storyId, json);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR', message });
    }
    for (const [who, id] of [
      [other.client, storyId],
      [client, 999_999_999],
      [client, 99_999_999_999],
    ] as const) {
      const res = await rename(who, id, { title: 'Mine now' });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'NOT_FOUND', message: 'Story not found' });
    }
    expect((await rename(client, 'abc', { title: 'x' })).json().message).toBe('Story id must be a number');
  });
});

describe('DELETE /api/story/{id}', () => {
  it('removes the story with its bookmarks, shares and pictures, and only the owner can', async () => {
    const { client } = await registerUser(ctx.app);
    const other = await registerUser(ctx.app);
    await client.post('/api/preferences', { imageGeneration: true });
    const kept = await startStory(client, 'A story that stays');
    const doomed = await startStory(client, 'A story that goes');
    const picture = (await settlePicture(client, doomed.messageId)).json();
    await settlePicture(client, kept.messageId);
    expect(
      (await client.post('/api/bookmarks', { storyId: doomed.storyId, lastMessageId: doomed.messageId, title: 'Here' }))
        .statusCode,
    ).toBe(201);
    const { shareId } = (await client.post(`/api/story/${doomed.storyId}/share`, { title: 'Gone soon' })).json();
    expect((await ctx.app.inject({ method: 'GET', url: `/api/shared/${shareId}` })).statusCode).toBe(200);

    const refused = await remove(other.client, doomed.storyId);
    expect(refused.statusCode).toBe(404);
    expect(refused.json().message).toBe('Story not found');

    const res = await remove(client, doomed.storyId);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });
    expect((await client.get(`/api/story/${doomed.storyId}/current-state`)).statusCode).toBe(404);
    expect((await client.get('/api/bookmarks')).json()).toEqual([]);
    // The cached public copy went too.
    expect((await ctx.app.inject({ method: 'GET', url: `/api/shared/${shareId}` })).statusCode).toBe(404);
    const hash = /\/api\/images\/(\w[\w-]*)\.webp$/.exec(picture.image)![1];
    const assets = await ctx.database.executeSql('select count(*)::int as n from image_assets where hash = $1', [hash]);
    expect(assets.rows[0]).toEqual({ n: 0 });
    expect((await client.get('/api/stories')).json().stories.map((s: { id: number }) => s.id)).toEqual([kept.storyId]);
    expect((await remove(client, doomed.storyId)).statusCode).toBe(404);
  });

  it('keeps a picture another story still shows', async () => {
    const { client } = await registerUser(ctx.app);
    await client.post('/api/preferences', { imageGeneration: true });
    const a = await startStory(client, 'Twin story one');
    const b = await startStory(client, 'Twin story two');
    const picture = (await settlePicture(client, a.messageId)).json();
    await settlePicture(client, b.messageId);
    const hash = /\/api\/images\/(\w[\w-]*)\.webp$/.exec(picture.image)![1];
    // Both openings show the same stored picture (content-addressed).
    await ctx.database.executeSql('update scene_images set asset_hash = $1 where message_id = $2', [hash, b.messageId]);
    expect((await remove(client, a.storyId)).statusCode).toBe(200);
    expect(
      (await ctx.database.executeSql('select count(*)::int as n from image_assets where hash = $1', [hash])).rows[0],
    ).toEqual({ n: 1 });
    expect((await client.get(picture.image.replace('.webp', '.thumb.webp'))).statusCode).toBe(200);
  });

  it('answers 409 while a reply is being written, and deletes once it is done', async () => {
    const { client } = await registerUser(ctx.app);
    const { storyId } = await startStory(client, 'A story mid-reply');
    const until = new Date(ctx.clock.now.getTime() + 60_000);
    await ctx.database.executeSql('update stories set generating_until = $1 where id = $2', [
      until.toISOString(),
      storyId,
    ]);
    const busy = await remove(client, storyId);
    expect(busy.statusCode).toBe(409);
    expect(busy.json()).toMatchObject({
      code: 'CONFLICT',
      message: 'The narrator is still writing the last reply. Please wait for it to finish.',
    });
    expect((await client.get(`/api/story/${storyId}/current-state`)).statusCode).toBe(200);
    ctx.clock.advance(61_000);
    expect((await remove(client, storyId)).statusCode).toBe(200);
  });

  it('keeps the player\u2019s usage totals', async () => {
    const { client } = await registerUser(ctx.app);
    const { storyId } = await startStory(client, 'A story that costs tokens');
    await play(client, storyId, 'I spend some');
    const before = (await client.get('/api/user')).json().tokenUsage;
    expect(before.total).toBeGreaterThan(0);
    expect((await remove(client, storyId)).statusCode).toBe(200);
    expect((await client.get('/api/user')).json().tokenUsage).toEqual(before);
  });
});
