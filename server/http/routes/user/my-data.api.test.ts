// The player's own data: GET /api/user/export gives everything of theirs as JSON; DELETE /api/user
// with the password removes the account and all of it (stories, bookmarks, shares, pictures,
// sessions, preferences), keeps the usage rows anonymous for the operator's totals, and refuses a
// wrong password without touching anything.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settlePicture } from '@server/test/fake-painter';
import { registerUser, TestClient, type TestContext, createPaintingTestApp } from '@server/test/test-app';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createPaintingTestApp();
});
afterAll(() => ctx.close());

const PASSWORD = 'correct horse battery staple';
const removeAccount = (client: TestClient, json: unknown) =>
  client.request({ method: 'DELETE', url: '/api/user', json });

async function playerWithEverything() {
  const user = await registerUser(ctx.app, { password: PASSWORD });
  const { client } = user;
  await client.post('/api/preferences', { imageGeneration: true, contentRating: 'mature' });
  const start = await client.post('/api/story/start', { prompt: 'A night ferry to a drowned village' });
  expect(start.statusCode, start.body).toBe(200);
  const started = start.json();
  // Checked here, so that a failed turn is named as such, not found later as a missing message.
  const turn = await client.post(`/api/story/${started.storyId}/continue`, { message: 'I board the ferry' });
  expect(turn.statusCode, turn.body).toBe(200);
  const picture = (await settlePicture(client, started.messageId)).json();
  await client.post('/api/bookmarks', {
    storyId: started.storyId,
    lastMessageId: started.messageId,
    title: 'The crossing',
  });
  const { shareId } = (await client.post(`/api/story/${started.storyId}/share`, { title: 'The Ferry' })).json();
  return { ...user, storyId: started.storyId as number, shareId: shareId as string, picture };
}

const count = async (sql: string, values: unknown[]) =>
  ((await ctx.database.executeSql(sql, values)).rows[0] as { n: number }).n;

describe('GET /api/user/export', () => {
  it('downloads everything of the player\u2019s as JSON, and nothing of anyone else\u2019s', async () => {
    const player = await playerWithEverything();
    await registerUser(ctx.app);
    const res = await player.client.get('/api/user/export');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="taleweaver-data-[a-z0-9-]+\.json"$/);
    const data = res.json();
    expect(data).toMatchObject({
      format: 'taleweaver.account',
      version: 1,
      account: { username: player.username, email: player.email },
      preferences: { imageGeneration: true, contentRating: 'mature' },
      bookmarks: [{ storyId: player.storyId, title: 'The crossing' }],
      shares: [{ shareId: player.shareId, storyId: player.storyId, title: 'The Ferry' }],
    });
    expect(data.tokenUsage.total).toBeGreaterThan(0);
    expect(data.stories).toHaveLength(1);
    expect(data.stories[0]).toMatchObject({ storyId: player.storyId, format: 'taleweaver.story', version: 4 });
    expect(data.stories[0].messages).toHaveLength(4);
    expect(JSON.stringify(data)).not.toMatch(/passwordHash|password_hash|tokenHash|\$argon2/);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/user/export' })).statusCode).toBe(401);
  });
});

describe('DELETE /api/user', () => {
  it('refuses a missing or wrong password and keeps everything', async () => {
    const player = await playerWithEverything();
    const missing = await removeAccount(player.client, {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: 'Please enter your password to delete your account.',
    });
    const wrong = await removeAccount(player.client, { password: 'not my password' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({
      code: 'INVALID_CREDENTIALS',
      message: 'That password is not right. Your account was not deleted.',
    });
    expect((await player.client.get('/api/user')).statusCode).toBe(200);
    expect((await player.client.get(`/api/story/${player.storyId}/current-state`)).statusCode).toBe(200);
    expect((await removeAccount(new TestClient(ctx.app), { password: PASSWORD })).statusCode).toBe(401);
  });

  it('removes the account and everything of it, ends its sessions, and keeps anonymous usage rows', async () => {
    const player = await playerWithEverything();
    const other = await registerUser(ctx.app, { password: PASSWORD });
    const otherStory = (await other.client.post('/api/story/start', { prompt: 'Someone else entirely' })).json();
    const usageBefore = await count('select count(*)::int as n from usage_events where user_id = $1', [player.id]);
    expect(usageBefore).toBeGreaterThan(0);
    const totalBefore = await count(
      'select coalesce(sum(input_tokens + output_tokens), 0)::int as n from usage_daily',
      [],
    );

    const res = await removeAccount(player.client, { password: PASSWORD });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });
    expect(String(res.headers['set-cookie'])).toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/);

    expect((await player.client.get('/api/user')).statusCode).toBe(401);
    for (const [table, column] of [
      ['users', 'id'],
      ['stories', 'user_id'],
      ['bookmarks', 'user_id'],
      ['shared_stories', 'user_id'],
      ['scene_images', 'user_id'],
      ['sessions', 'user_id'],
      ['user_preferences', 'user_id'],
    ]) {
      expect(await count(`select count(*)::int as n from ${table} where ${column} = $1`, [player.id]), table).toBe(0);
    }
    const hash = /\/api\/images\/([a-f0-9]{64})\.webp$/.exec(player.picture.image)![1];
    expect(await count('select count(*)::int as n from image_assets where hash = $1', [hash])).toBe(0);
    expect((await ctx.app.inject({ method: 'GET', url: `/api/shared/${player.shareId}` })).statusCode).toBe(404);
    // The ledger keeps the rows without a player; the operator's totals do not move.
    expect(await count('select count(*)::int as n from usage_events where user_id is null', [])).toBeGreaterThanOrEqual(
      usageBefore,
    );
    expect(await count('select coalesce(sum(input_tokens + output_tokens), 0)::int as n from usage_daily', [])).toBe(
      totalBefore,
    );
    // Nobody else lost anything; the name is free again.
    expect((await other.client.get(`/api/story/${otherStory.storyId}/current-state`)).statusCode).toBe(200);
    const again = await registerUser(ctx.app, { username: player.username, email: player.email, password: PASSWORD });
    expect(again.id).not.toBe(player.id);
  });
});
