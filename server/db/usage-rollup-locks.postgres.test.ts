// Two writes of one player at once on PostgreSQL: a turn's reply (its message counted in the
// player's stored bytes, then its usage rolled up) and a picture finishing (its usage rolled up).
// The rollup took the day's and the month's rows before the player's stats row, which the stored
// bytes had already taken for the reply, so the two waited on each other and PostgreSQL ended one
// with "deadlock detected" (a turn's 500, seen in CI). Here the picture's write starts first and is
// left waiting; the reply's must still finish, and then the picture's, both counted.
import type pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, registerUser, type TestContext } from '@server/test/test-app';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({}, { painter: null });
});
afterAll(() => ctx.close());

const usageRow = (kind: string) =>
  `insert into usage_events (user_id, story_id, kind, provider, model, input_tokens, output_tokens, image_tokens)
   values ($1, $2, '${kind}', 'openai', 'fake', 10, 20, ${kind === 'image' ? 30 : 0})`;

/** Waits until `pid` is waiting on a lock another session holds. */
async function waitingOnLock(observer: pg.PoolClient, pid: number): Promise<void> {
  for (let i = 0; i < 400; i += 1) {
    const { rows } = await observer.query('select wait_event_type from pg_stat_activity where pid = $1', [pid]);
    if (rows[0]?.wait_event_type === 'Lock') return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the second write never waited');
}

it("lets a reply's write and a picture's write of the same player finish one after the other, never deadlocked", async () => {
  const { client, id: userId } = await registerUser(ctx.app);
  const storyId = (await client.post('/api/story/start', { prompt: 'A lighthouse keeper counts the ships' })).json()
    .storyId as number;
  const [reply, picture, observer] = await Promise.all([
    ctx.database.connect(),
    ctx.database.connect(),
    ctx.database.connect(),
  ]);
  try {
    const before = await observer.query(
      'select stored_bytes, image_tokens, text_tokens from user_stats where user_id = $1',
      [userId],
    );
    // The reply's transaction counts its message first: the stats row is now its.
    await reply.query('begin');
    await reply.query(
      `insert into story_messages (story_id, role, content, turn) values ($1, 'assistant', 'The lamp turns.', 2)`,
      [storyId],
    );
    // The picture's usage, in a transaction of its own, has to wait for the reply's.
    await picture.query('begin');
    const pictureWrite = picture.query(usageRow('image'), [userId, storyId]);
    pictureWrite.catch(() => undefined); // awaited below; a deadlock must fail the test, not the run
    await waitingOnLock(observer, (picture as unknown as { processID: number }).processID);
    // The reply's usage: with the old order it wanted the month row the picture held, and deadlocked.
    await reply.query(usageRow('turn'), [userId, storyId]);
    await reply.query('commit');
    await pictureWrite;
    await picture.query('commit');

    const after = await observer.query(
      'select stored_bytes, image_tokens, text_tokens from user_stats where user_id = $1',
      [userId],
    );
    expect(Number(after.rows[0].stored_bytes) - Number(before.rows[0].stored_bytes)).toBe('The lamp turns.'.length);
    expect(Number(after.rows[0].image_tokens) - Number(before.rows[0].image_tokens)).toBe(30);
    expect(Number(after.rows[0].text_tokens) - Number(before.rows[0].text_tokens)).toBe(60);
  } finally {
    for (const connection of [reply, picture, observer]) {
      await connection.query('rollback').catch(() => undefined);
      connection.release();
    }
  }
});
