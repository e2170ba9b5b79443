// A share is written and read in pieces (migration 0015): one jsonb value of a 5 MB
// snapshot held the embedded database's one session for a fifth of a second to write, and as long
// to read. Its messages go in as runs of at most 256 KB of JSON text, each its own statement, while
// the share stays hidden; a refused or failed share is deleted, one left by a process that died
// goes at the next start or after an hour; and the pictures a share shows are rows of their own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepositories } from '@server/db/repositories';
import { piecesOf } from '@server/db/repositories/shares';
import { PIECE_BYTES } from '@server/db/repositories/sql-values';
import { cleanExpired } from '@server/jobs/housekeeping';
import { settlePicture } from '@server/test/fake-painter';
import { growStory } from '@server/test/grown-story';
import { quotaCounters } from '@server/test/quota-counters';
import { registerUser, TestClient, type TestContext, createPaintingTestApp } from '@server/test/test-app';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createPaintingTestApp();
});
afterAll(() => ctx.close());

const repos = () => createRepositories(ctx.database.db);
const count = async (query: string, params: unknown[]) =>
  ((await ctx.database.executeSql(query, params)).rows[0] as { n: number }).n;
const reader = () => new TestClient(ctx.app, '10.71.0.1');

async function startStory(client: TestClient, prompt: string): Promise<{ storyId: number; messageId: number }> {
  const res = await client.post('/api/story/start', { prompt });
  expect(res.statusCode).toBe(200);
  return res.json();
}

describe('piecesOf', () => {
  it('groups messages into JSON arrays of at most PIECE_BYTES, in order, a bigger message alone', () => {
    const small = JSON.stringify({ role: 'user', content: 'a'.repeat(100_000) });
    const big = JSON.stringify({ role: 'assistant', content: 'é'.repeat(200_000) });
    const pieces = [...piecesOf([small, small, small, big, small])];
    expect(pieces.map((p) => (JSON.parse(p) as unknown[]).length)).toEqual([2, 1, 1, 1]);
    expect(Buffer.byteLength(pieces[0])).toBeLessThanOrEqual(PIECE_BYTES);
    expect(Buffer.byteLength(pieces[2])).toBeGreaterThan(PIECE_BYTES);
    expect(pieces.flatMap((p) => JSON.parse(p) as unknown[])).toEqual(
      [small, small, small, big, small].map((m) => JSON.parse(m)),
    );
    expect([...piecesOf([])]).toEqual(['[]']);
  });
});

describe('a big share', () => {
  it('is written in pieces of at most 256 KB and read back whole, in order', async () => {
    const { client, id } = await registerUser(ctx.app);
    const { storyId } = await startStory(client, 'A cartographer maps a city that rearranges itself');
    // 400 messages of 3,000 characters: 1.2 MB of text.
    await growStory(ctx.database, storyId, 200, 3000);
    const res = await client.post(`/api/story/${storyId}/share`, { title: 'The Shifting City' });
    expect(res.statusCode).toBe(201);
    const { shareId } = res.json();

    const pieces = (
      await ctx.database.executeSql(
        'select piece, octet_length(messages)::int as bytes from shared_story_pieces where share_id = $1 order by piece',
        [shareId],
      )
    ).rows as Array<{ piece: number; bytes: number }>;
    expect(pieces.length).toBeGreaterThanOrEqual(5);
    expect(pieces.map((p) => p.piece)).toEqual(pieces.map((_, i) => i));
    expect(pieces.every((p) => p.bytes <= PIECE_BYTES)).toBe(true);

    const story = (await client.get(`/api/story/${storyId}/current-state`)).json();
    const shared = await reader().get(`/api/shared/${shareId}`);
    expect(shared.statusCode).toBe(200);
    expect(shared.json().messages.map((m: { role: string; content: string }) => [m.role, m.content])).toEqual(
      story.messages.map((m: { role: string; content: string }) => [m.role, m.content]),
    );
    // The stored text is counted once, and exactly.
    const { counted, actual } = await quotaCounters(ctx.database, id);
    expect(counted).toEqual(actual);
    expect(actual.shares).toBe(1);
  });

  it('is deleted with nothing counted when its last step finds the account over its storage', async () => {
    const { client, id } = await registerUser(ctx.app);
    const { storyId } = await startStory(client, 'A bell founder casts a bell that rings backwards');
    await growStory(ctx.database, storyId, 100, 3000);
    const before = (await client.get('/api/user/limits')).json().storedBytes.used as number;
    // Room for the story but not for its 600 KB copy as a share: the check after the pieces refuses it.
    await ctx.database.executeSql('update user_stats set stored_bytes = stored_bytes + $2 where user_id = $1', [
      id,
      500 * 1024 * 1024 - before - 100_000,
    ]);
    const refused = await client.post(`/api/story/${storyId}/share`, { title: 'Backwards' });
    expect(refused.statusCode).toBe(413);
    expect(refused.json().message).toContain('500 MB');
    expect(await count('select count(*)::int as n from shared_stories where user_id = $1', [id])).toBe(0);
    expect(await count('select count(*)::int as n from shared_story_pieces where user_id = $1', [id])).toBe(0);
    expect((await client.get('/api/user/limits')).json()).toMatchObject({
      shares: { used: 0 },
      storedBytes: { used: 500 * 1024 * 1024 - 100_000 },
    });
  });
});

describe('a share whose writing never finished', () => {
  it('is not found, not listed, and deleted at start-up and after an hour', async () => {
    const { client, id } = await registerUser(ctx.app);
    const { storyId } = await startStory(client, 'A ferryman counts coins that are not his');
    const half = 'hhhhhhhhhhhhhhhh';
    await ctx.database.executeSql(
      `insert into shared_stories (id, user_id, story_id, title, pieces, writing, created_at) values ($1, $2, $3, 'Half', 2, true, $4)`,
      [half, id, storyId, ctx.clock.now.toISOString()],
    );
    await ctx.database.executeSql(
      `insert into shared_story_pieces (share_id, user_id, piece, messages) values ($1, $2, 0, '[{"role":"user","content":"Coins"}]')`,
      [half, id],
    );
    expect((await reader().get(`/api/shared/${half}`)).statusCode).toBe(404);
    expect((await client.get('/api/user/export')).json().shares).toEqual([]);

    await cleanExpired(repos(), ctx.clock.now);
    expect(await count('select count(*)::int as n from shared_stories where id = $1', [half])).toBe(1);
    await cleanExpired(repos(), new Date(ctx.clock.now.getTime() + 61 * 60_000));
    expect(await count('select count(*)::int as n from shared_stories where id = $1', [half])).toBe(0);
    expect(await count('select count(*)::int as n from shared_story_pieces where share_id = $1', [half])).toBe(0);

    await ctx.database.executeSql(
      `insert into shared_stories (id, user_id, story_id, title, writing) values ($1, $2, $3, 'Half again', true)`,
      [half, id, storyId],
    );
    expect(await repos().shares.deleteAbandoned()).toBe(1);
    const { counted, actual } = await quotaCounters(ctx.database, id);
    expect(counted).toEqual(actual);
    expect(actual.shares).toBe(0);
  });
});

describe('a picture a share shows', () => {
  it('is kept while a share shows it when another story that showed it goes; the share\u2019s rows go with the share', async () => {
    const { client } = await registerUser(ctx.app);
    await client.post('/api/preferences', { imageGeneration: true });
    const shared = await startStory(client, 'A lantern maker sells light by the hour');
    const picture = (await settlePicture(client, shared.messageId)).json();
    const hash = /\/api\/images\/(\w[\w-]*)\.webp$/.exec(picture.image)![1];
    const { shareId } = (
      await client.post(`/api/story/${shared.storyId}/share`, { title: 'Light by the hour' })
    ).json();
    expect(
      await count('select count(*)::int as n from shared_story_pictures where share_id = $1 and asset_hash = $2', [
        shareId,
        hash,
      ]),
    ).toBe(1);

    // Another story shows the same stored picture and the shared story no longer does: the share still does.
    const other = await startStory(client, 'A second lantern maker');
    await settlePicture(client, other.messageId);
    await ctx.database.executeSql('update scene_images set asset_hash = $1 where message_id = $2', [
      hash,
      other.messageId,
    ]);
    await ctx.database.executeSql('update scene_images set asset_hash = null where message_id = $1', [
      shared.messageId,
    ]);
    expect((await client.request({ method: 'DELETE', url: `/api/story/${other.storyId}`, json: {} })).statusCode).toBe(
      200,
    );
    expect(await count('select count(*)::int as n from image_assets where hash = $1', [hash])).toBe(1);
    expect((await reader().get(`/api/shared/${shareId}/images/${hash}.webp`)).statusCode).toBe(200);

    // The shared story goes, its share with it.
    expect((await client.request({ method: 'DELETE', url: `/api/story/${shared.storyId}`, json: {} })).statusCode).toBe(
      200,
    );
    expect(await count('select count(*)::int as n from shared_story_pictures where share_id = $1', [shareId])).toBe(0);
  });
});
