// Discover, GET /api/scenarios, on both databases: only public scenarios (never a draft or an
// unlisted one), newest published first, found by words (English stems: 'harbours' finds
// 'harbour'), genre and tag; the ratings a viewer sees follow their content-rating preference
// (visitors and general players: general only); pages of 24 joined by an opaque cursor, with no
// scenario twice or missed; a cursor that is not ours is a 400; likes, one a player, counted by the
// database (an account's deletion takes its likes back) and sorted by.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DISCOVER_PAGE_SIZE } from '@shared/schemas/scenarios';
import { createTestApp, registerUser, type TestClient, type TestContext } from '@server/test/test-app';

let ctx: TestContext;
let author: TestClient;

beforeAll(async () => {
  ctx = await createTestApp({ scenarios: { maxPerUser: 100, publishPerHour: 100 } });
  author = (await registerUser(ctx.app)).client;
});
afterAll(() => ctx.close());

async function published(fields: object, visibility: 'public' | 'unlisted' | null = 'public'): Promise<string> {
  const made = await author.post('/api/scenarios', { premise: 'You wake in a strange place.', ...fields });
  expect(made.statusCode, made.body).toBe(201);
  const { id } = made.json().scenario;
  if (visibility) expect((await author.post(`/api/scenarios/${id}/publish`, { visibility })).statusCode).toBe(200);
  // The test app's clock stands still: each a second later, so "newest first" has one answer (the
  // same instant goes by id).
  ctx.clock.advance(1000);
  return id;
}

const discover = async (query: string, client?: TestClient) => {
  const res = client
    ? await client.get(`/api/scenarios${query}`)
    : await ctx.app.inject({ method: 'GET', url: `/api/scenarios${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { scenarios: { id: string; title: string }[]; nextCursor: string | null };
};
const titles = (answer: { scenarios: { title: string }[] }) => answer.scenarios.map((s) => s.title);

describe('Discover', () => {
  it('finds public scenarios by words, genre, tag and rating, newest first, as the viewer may see them', async () => {
    await published({ title: 'Harbour of Glass', tags: ['mystery', 'sea'], genre: 'mystery' });
    await published({ title: 'Dragon Pass', description: 'A mountain road and a hungry dragon.', genre: 'fantasy' });
    await published({ title: 'Night Shift', tags: ['horror'], genre: 'horror', contentRating: 'teen' });
    await published({ title: 'Velvet Rooms', contentRating: 'mature' });
    await published({ title: 'Unlisted Harbour' }, 'unlisted');
    await published({ title: 'Draft Harbour' }, null);

    expect(titles(await discover(''))).toEqual(['Dragon Pass', 'Harbour of Glass']);
    expect(titles(await discover('?q=harbours'))).toEqual(['Harbour of Glass']);
    expect(titles(await discover('?q=dragon%20mountain'))).toEqual(['Dragon Pass']);
    expect(titles(await discover('?genre=fantasy'))).toEqual(['Dragon Pass']);
    expect(titles(await discover('?tag=sea'))).toEqual(['Harbour of Glass']);

    // A teen player sees teen ones too; a mature one everything; the rating filter narrows within that.
    const teen = (await registerUser(ctx.app)).client;
    expect((await teen.post('/api/preferences', { contentRating: 'teen' })).statusCode).toBe(200);
    expect(titles(await discover('', teen))).toEqual(['Night Shift', 'Dragon Pass', 'Harbour of Glass']);
    const mature = (await registerUser(ctx.app)).client;
    expect((await mature.post('/api/preferences', { contentRating: 'mature' })).statusCode).toBe(200);
    expect(titles(await discover('?rating=mature', mature))).toEqual(['Velvet Rooms']);
    expect(titles(await discover('?rating=mature', teen))).toEqual([]);
    // A general player is as a visitor.
    expect(titles(await discover('', (await registerUser(ctx.app)).client))).toEqual([
      'Dragon Pass',
      'Harbour of Glass',
    ]);
  });

  it('pages through every match once, 24 a page, and refuses a cursor that is not its own', async () => {
    const made: string[] = [];
    for (let i = 0; i < DISCOVER_PAGE_SIZE + 5; i += 1)
      made.push(await published({ title: `Lighthouse ${i}`, tags: ['paged'] }));
    const first = await discover('?tag=paged');
    expect(first.scenarios).toHaveLength(DISCOVER_PAGE_SIZE);
    expect(first.nextCursor).not.toBeNull();
    const second = await discover(`?tag=paged&cursor=${first.nextCursor}`);
    expect(second.scenarios).toHaveLength(5);
    expect(second.nextCursor).toBeNull();
    const seen = [...first.scenarios, ...second.scenarios].map((s) => s.id);
    expect(new Set(seen).size).toBe(made.length);
    expect([...seen].sort()).toEqual([...made].sort());
    expect(titles(first)[0]).toBe(`Lighthouse ${DISCOVER_PAGE_SIZE + 4}`);

    for (const cursor of ['nonsense', Buffer.from('[1,2]').toString('base64url')]) {
      const res = await ctx.app.inject({ method: 'GET', url: `/api/scenarios?cursor=${cursor}` });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('That page of scenarios is not known: start again from the first.');
    }
  });

  it('counts one like a player, shows the caller theirs, and sorts by likes', async () => {
    const few = await published({ title: 'Few Likes', tags: ['liked'] });
    const many = await published({ title: 'Many Likes', tags: ['liked'] });
    await published({ title: 'No Likes', tags: ['liked'] });
    const fans = await Promise.all([1, 2, 3].map(() => registerUser(ctx.app)));
    const like = (client: TestClient, id: string) =>
      client.request({ method: 'PUT', url: `/api/scenarios/${id}/like`, json: {} });
    // Twice from one player is one like.
    expect((await like(fans[0].client, many)).json()).toEqual({ likes: 1, liked: true });
    expect((await like(fans[0].client, many)).json()).toEqual({ likes: 1, liked: true });
    expect((await like(fans[1].client, many)).json()).toEqual({ likes: 2, liked: true });
    expect((await like(fans[2].client, few)).json()).toEqual({ likes: 1, liked: true });
    expect((await fans[0].client.get(`/api/scenarios/${many}`)).json().scenario).toMatchObject({
      likes: 2,
      liked: true,
    });
    expect((await fans[2].client.get(`/api/scenarios/${many}`)).json().scenario).toMatchObject({
      likes: 2,
      liked: false,
    });

    const byLikes = await discover('?tag=liked&sort=likes');
    expect(titles(byLikes)).toEqual(['Many Likes', 'Few Likes', 'No Likes']);
    expect(byLikes.scenarios.map((s) => (s as { likes?: number }).likes)).toEqual([2, 1, 0]);

    const taken = await fans[1].client.request({ method: 'DELETE', url: `/api/scenarios/${many}/like`, json: {} });
    expect(taken.json()).toEqual({ likes: 1, liked: false });
    // A player who leaves takes their likes with them.
    await ctx.database.executeSql('delete from users where id = $1', [fans[2].id]);
    const after = (await discover('?tag=liked&sort=likes')).scenarios.map((s) => [
      s.title,
      (s as { likes?: number }).likes,
    ]);
    // The same count goes by id: the two at 0 may come either way round.
    expect(after[0]).toEqual(['Many Likes', 1]);
    expect(after.slice(1).sort()).toEqual([
      ['Few Likes', 0],
      ['No Likes', 0],
    ]);

    // A draft of another is not there to like; a visitor must sign in; a cursor of another sort is refused.
    const draft = await published({ title: 'Secret' }, null);
    expect((await like(fans[0].client, draft)).statusCode).toBe(404);
    const visitor = await ctx.app.inject({ method: 'PUT', url: `/api/scenarios/${many}/like`, payload: {} });
    expect(visitor.statusCode).toBe(401);
    const newest = await discover('?tag=paged');
    const mixed = await ctx.app.inject({
      method: 'GET',
      url: `/api/scenarios?tag=paged&sort=likes&cursor=${newest.nextCursor}`,
    });
    expect(mixed.statusCode).toBe(400);
  });
});
