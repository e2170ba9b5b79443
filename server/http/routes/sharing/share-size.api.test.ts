// The size of a share (SHARE_MAX_BYTES): a story whose public snapshot would be larger is refused
// with a 413 that names the limit, read no further than the limit, and creates nothing; every
// snapshot up to the limit stays in the shared-story cache, so reading it again never makes it again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepositories } from '@server/db/repositories';
import { growStory } from '@server/test/grown-story';
import { createTestApp, registerUser, TestClient, type TestContext } from '@server/test/test-app';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({ shareMaxBytes: 4096 }, { painter: null });
});
afterAll(() => ctx.close());

/** A player's story grown in the database by `turns` actions and replies of `bytes` characters each. */
async function storyOf(app: TestContext, turns: number, bytes: number) {
  const { client } = await registerUser(app.app);
  const { storyId } = (
    await client.post('/api/story/start', { prompt: 'A glassblower keeps storms in bottles' })
  ).json();
  await growStory(app.database, storyId, turns, bytes);
  return { client, storyId: storyId as number };
}

const shareCount = async (storyId: number) =>
  (
    (await ctx.database.executeSql('select count(*)::int as n from shared_stories where story_id = $1', [storyId]))
      .rows[0] as { n: number }
  ).n;

describe('POST /api/story/{id}/share past SHARE_MAX_BYTES', () => {
  it('refuses a story whose snapshot would be too large with a 413 naming the limit, and creates nothing', async () => {
    const { client, storyId } = await storyOf(ctx, 3, 1000);
    const res = await client.post(`/api/story/${storyId}/share`, { title: 'Storms' });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({
      code: 'PAYLOAD_TOO_LARGE',
      message:
        'This story is too long to share: a shared story can be at most 4 KB. Branch it from an earlier turn and share the branch instead.',
    });
    expect(await shareCount(storyId)).toBe(0);
  });

  it('counts the answer readers get, escapes included, not only the texts', async () => {
    const { client, storyId } = await storyOf(ctx, 1, 10);
    // 1,500 quotes: 1.5 KB of text, 3 KB once escaped in JSON, beside the opening reply.
    await ctx.database.executeSql(
      `update story_messages set content = repeat('"', 1500) where story_id = $1 and turn = 1`,
      [storyId],
    );
    expect((await client.post(`/api/story/${storyId}/share`, { title: 'Quotes' })).statusCode).toBe(413);
  });

  it('shares a story within the limit', async () => {
    const { client, storyId } = await storyOf(ctx, 1, 500);
    const res = await client.post(`/api/story/${storyId}/share`, { title: 'Storms' });
    expect(res.statusCode).toBe(201);
    const read = await new TestClient(ctx.app, '10.70.0.1').get(`/api/shared/${res.json().shareId}`);
    expect(read.statusCode).toBe(200);
    expect(Buffer.byteLength(read.body)).toBeLessThanOrEqual(4096);
  });

  it('reads a long story no further than the limit (and the batch of messages that crosses it)', async () => {
    const { storyId } = await storyOf(ctx, 750, 1000);
    const [{ user_id: userId }] = (
      await ctx.database.executeSql('select user_id from stories where id = $1', [storyId])
    ).rows as Array<{ user_id: number }>;
    const files = createRepositories(ctx.database.db).storyFiles;
    const bounded = await files.snapshot(storyId, userId, false, { maxTextBytes: 5_000 });
    expect(bounded?.complete).toBe(false);
    // The first read of the story's 1,502 messages (10 of them, 8.6 KB of texts with the opening) passed 5 KB and stopped the reading.
    expect(bounded?.messages).toHaveLength(10);
    const whole = await files.snapshot(storyId, userId, false, { maxTextBytes: 10_000_000 });
    expect(whole?.complete).toBe(true);
    expect(whole?.messages).toHaveLength(1502);
    expect(whole?.messages.map((m) => m.id)).toEqual(
      [...(whole?.messages.map((m) => m.id) ?? [])].sort((a, b) => a - b),
    );
  });
});

describe('with the default SHARE_MAX_BYTES (8 MB)', () => {
  it('keeps a snapshot near the limit in memory, read again with the database gone from the bytes made once, and refuses one past it', async () => {
    const big = await createTestApp({}, { painter: null });
    try {
      const { client, storyId } = await storyOf(big, 3700, 1000);
      const { shareId } = (await client.post(`/api/story/${storyId}/share`, { title: 'Storms' })).json();
      const reader = new TestClient(big.app, '10.70.0.2');
      const first = await reader.request({
        method: 'GET',
        url: `/api/shared/${shareId}`,
        headers: { 'accept-encoding': 'br' },
      });
      expect(first.statusCode).toBe(200);
      expect(first.headers['content-encoding']).toBe('br');

      // One more megabyte of story is past the limit.
      await big.database.executeSql(
        `update story_messages set content = repeat('x', 1000000) where id = (select max(id) from story_messages where story_id = $1)`,
        [storyId],
      );
      const refused = await client.post(`/api/story/${storyId}/share`, { title: 'More storms' });
      expect([refused.statusCode, refused.json().message]).toEqual([
        413,
        'This story is too long to share: a shared story can be at most 8 MB. Branch it from an earlier turn and share the branch instead.',
      ]);

      await big.database.close();
      const again = await reader.request({
        method: 'GET',
        url: `/api/shared/${shareId}`,
        headers: { 'accept-encoding': 'br' },
      });
      expect(again.statusCode).toBe(200);
      expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
    } finally {
      await big.app.close();
    }
  });
});
