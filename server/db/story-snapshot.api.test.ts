// An export reads its story as one moment without holding the database for the whole story: the
// heads (which version each message shows) in one short transaction, then the texts those heads name.
// An edit, a 'Try again' or a new turn landing between the two never shows up half-way.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepositories } from '@server/db/repositories';
import { play, startStory } from '@server/test/story-turns';
import { createTestApp, registerUser, type TestContext } from '@server/test/test-app';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({}, { painter: null });
});
afterAll(() => ctx.close());

/** Runs `meanwhile` right after the snapshot's first transaction (its moment) and before its texts are read. */
async function snapshotWith(storyId: number, userId: number, meanwhile: () => Promise<unknown>) {
  const db = ctx.database.db as unknown as { transaction: (...args: unknown[]) => Promise<unknown> };
  const transaction = db.transaction;
  let first = true;
  db.transaction = async (...args: unknown[]) => {
    const result = await transaction.apply(db, args);
    if (first) {
      first = false;
      db.transaction = transaction;
      await meanwhile();
    }
    return result;
  };
  try {
    return await createRepositories(ctx.database.db).storyFiles.snapshot(storyId, userId, false);
  } finally {
    db.transaction = transaction;
  }
}

describe('a story snapshot for an export', () => {
  it('shows each message as it was at its moment, whatever lands before its texts are read', async () => {
    const { client, id } = await registerUser(ctx.app);
    const { storyId } = await startStory(client, 'A bell founder casts a bell that rings by itself');
    const first = await play(client, storyId, 'I listen to the bell');
    const before = (await client.get(`/api/story/${storyId}/current-state`)).json().messages as Array<{
      messageId: number;
      content: string;
    }>;

    const snapshot = await snapshotWith(storyId, id, async () => {
      // An edit of a reply that had one version, a 'Try again' and a whole new turn.
      const edited = await client.request({
        method: 'PATCH',
        url: `/api/story/${storyId}/messages/${first.messageId}`,
        json: { content: 'The bell rings once, then falls silent.' },
      });
      expect(edited.statusCode).toBe(200);
      expect((await client.post(`/api/story/${storyId}/retry`)).statusCode).toBe(200);
      await play(client, storyId, 'I ring the bell myself');
    });

    expect(snapshot).not.toBeNull();
    expect(snapshot!.messages.map((m) => [m.id, m.content])).toEqual(before.map((m) => [m.messageId, m.content]));
    expect(snapshot!.messages.every((m) => m.history === undefined)).toBe(true);
    // And a later snapshot sees all of it: the reply with its versions, the new turn.
    const after = await createRepositories(ctx.database.db).storyFiles.snapshot(storyId, id, false);
    expect(after!.messages).toHaveLength(before.length + 2);
    expect(after!.messages.find((m) => m.id === first.messageId)!.history!.map((v) => v.kind)).toEqual([
      'original',
      'edit',
      'alternative',
    ]);
  });

  it('reads the shown texts alone when asked without versions: the shown version of each message, and no others', async () => {
    const { client, id } = await registerUser(ctx.app);
    const { storyId } = await startStory(client, 'A glassblower hears voices in the furnace');
    const reply = await play(client, storyId, 'I open the furnace door');
    // The reply gains an edit and an alternative, then shows its edit (version 2 of 3).
    expect(
      (
        await client.request({
          method: 'PATCH',
          url: `/api/story/${storyId}/messages/${reply.messageId}`,
          json: { content: 'The voices hum a tune you almost know.' },
        })
      ).statusCode,
    ).toBe(200);
    expect((await client.post(`/api/story/${storyId}/retry`)).statusCode).toBe(200);
    const whole = await createRepositories(ctx.database.db).storyFiles.snapshot(storyId, id, false);
    const versions = whole!.messages.find((m) => m.id === reply.messageId)!.history!;
    expect(versions).toHaveLength(3);
    expect(
      (await client.post(`/api/story/${storyId}/messages/${reply.messageId}/select`, { version: 2 })).statusCode,
    ).toBe(200);

    const shown = await createRepositories(ctx.database.db).storyFiles.snapshot(storyId, id, false, {
      versions: false,
    });
    const state = (await client.get(`/api/story/${storyId}/current-state`)).json().messages as Array<{
      messageId: number;
      content: string;
    }>;
    expect(shown!.messages.map((m) => [m.id, m.content])).toEqual(state.map((m) => [m.messageId, m.content]));
    expect(shown!.messages.find((m) => m.id === reply.messageId)).toMatchObject({
      content: 'The voices hum a tune you almost know.',
      version: 2,
    });
    expect(shown!.messages.every((m) => m.history === undefined)).toBe(true);
  });

  it('is null for another player\u2019s story, or one deleted before its texts are read', async () => {
    const owner = await registerUser(ctx.app);
    const other = await registerUser(ctx.app);
    const { storyId } = await startStory(owner.client, 'A cartographer maps a city that moves at night');
    expect(await createRepositories(ctx.database.db).storyFiles.snapshot(storyId, other.id, false)).toBeNull();
    const gone = await snapshotWith(storyId, owner.id, () =>
      owner.client.request({ method: 'DELETE', url: `/api/story/${storyId}`, json: {} }),
    );
    expect(gone).toBeNull();
  });
});
