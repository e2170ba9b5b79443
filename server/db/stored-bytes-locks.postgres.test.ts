// Writes of one player at once on PostgreSQL, now that the story bible's facts and the memory bank's
// rows count in the player's stored bytes (their triggers take the player's stats row after the
// statement's own rows, as every stored-bytes trigger does):
//   - a fold's facts saved past the story's cap of facts while the player edits (or a deletion takes)
//     the very fact the cap drops: the save held the stats row from its insert when it came to drop
//     that fact, and the edit, holding the fact, wanted the stats row, and PostgreSQL ended one with
//     "deadlock detected". The save now leaves a fact another write holds for the next save to drop;
//   - a turn's reply (its message, context record and ledger row, which take the stats row) and the
//     memory bank's passages and terms for the same player queue on the stats row and both finish.
import type pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createRepositories } from '@server/db/repositories';
import { quotaCounters, storedBytesByKind, type StoredKind } from '@server/test/quota-counters';
import { play, startStory } from '@server/test/story-turns';
import { createTestApp, registerUser, type TestContext } from '@server/test/test-app';
import { STORY_BIBLE_MAX_FACTS } from '@shared/schemas/story-bible';
import { passagesOf } from '@server/domains/story/memory/passages';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({}, { painter: null });
});
afterAll(() => ctx.close());

const pidOf = (connection: pg.PoolClient) => (connection as unknown as { processID: number }).processID;

/** Waits until `done` settles or a session other than `except` waits on a lock (the write `done` stands for). */
async function settledOrWaiting(observer: pg.PoolClient, except: number[], done: Promise<unknown>) {
  let settled = false;
  void done.then(
    () => (settled = true),
    () => (settled = true),
  );
  for (let i = 0; i < 400 && !settled; i += 1) {
    const { rows } = await observer.query(
      `select count(*)::int as n from pg_stat_activity
       where datname = current_database() and wait_event_type = 'Lock' and pid <> all($1::int[])`,
      [except],
    );
    if (rows[0].n > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  if (!settled) throw new Error('the write neither waited nor finished');
}

it("saves a fold's facts past the cap while the player edits the fact the cap would drop, never deadlocked", async () => {
  const { client, id: userId } = await registerUser(ctx.app);
  const { storyId } = await startStory(client, 'A lighthouse keeper counts the ships');
  const reply = await play(client, storyId, 'I climb the stairs to the lamp');
  // The story holds as many facts as it may; the oldest is the first the cap drops.
  await ctx.database.executeSql(
    `insert into story_facts (story_id, message_id, turn, entity, attribute, value)
     select $1, $2, g, 'ship ' || g, 'flag', 'blue' from generate_series(1, ${STORY_BIBLE_MAX_FACTS}) g`,
    [storyId, reply.messageId],
  );
  const oldest = (
    await ctx.database.executeSql('select min(id)::int as id from story_facts where story_id = $1', [storyId])
  ).rows[0] as { id: number };
  const repos = createRepositories(ctx.database.db);
  const [editor, observer] = await Promise.all([ctx.database.connect(), ctx.database.connect()]);
  try {
    // The player's edit has the fact (as an edit's update holds it while its trigger runs).
    await editor.query('begin');
    await editor.query('select id from story_facts where id = $1 for update', [oldest.id]);
    const fact = {
      messageId: reply.messageId,
      turn: 1,
      entity: 'your lamp',
      attribute: 'colour',
      value: 'green',
      pinned: false,
    };
    const saved = repos.storyBible.add(storyId, [fact], new Date(), STORY_BIBLE_MAX_FACTS);
    saved.catch(() => undefined); // awaited below; a deadlock must fail the test, not the run
    await settledOrWaiting(observer, [pidOf(editor), pidOf(observer)], saved);
    // The edit's own write, whose trigger takes the player's stats row.
    await editor.query(`update story_facts set value = 'a deep sea blue' where id = $1`, [oldest.id]);
    await editor.query('commit');
    await saved;

    const facts = await ctx.database.executeSql(
      `select count(*)::int as n, bool_or(id = $2) as kept, bool_or(entity = 'your lamp') as added from story_facts where story_id = $1`,
      [storyId, oldest.id],
    );
    // The fact the edit held stays (the next save drops it); the new one is kept.
    expect(facts.rows[0]).toEqual({ n: STORY_BIBLE_MAX_FACTS + 1, kept: true, added: true });
    const { counted, actual } = await quotaCounters(ctx.database, userId);
    expect(counted).toEqual(actual);

    // The next save keeps the story within its cap again.
    await repos.storyBible.add(storyId, [{ ...fact, value: 'amber' }], new Date(), STORY_BIBLE_MAX_FACTS);
    const after = await ctx.database.executeSql('select count(*)::int as n from story_facts where story_id = $1', [
      storyId,
    ]);
    expect(after.rows[0]).toEqual({ n: STORY_BIBLE_MAX_FACTS });
  } finally {
    for (const connection of [editor, observer]) {
      await connection.query('rollback').catch(() => undefined);
      connection.release();
    }
  }
});

it("lets a reply's write and the memory bank's write of the same player finish one after the other, both counted", async () => {
  const { client, id: userId } = await registerUser(ctx.app);
  const { storyId } = await startStory(client, 'A lighthouse keeper counts the ships');
  await play(client, storyId, 'I count the ships in the harbour at dusk');
  const repos = createRepositories(ctx.database.db);
  const [reply, observer] = await Promise.all([ctx.database.connect(), ctx.database.connect()]);
  try {
    const [action] = (
      await ctx.database.executeSql(
        `select id, version, turn, role, content from story_messages where story_id = $1 and role = 'user' and not is_initial`,
        [storyId],
      )
    ).rows as Array<{ id: number; version: number; turn: number; role: 'user'; content: string }>;
    const beforeKinds = await storedBytesByKind(ctx.database, userId);
    // The reply's transaction: its message, its context record and its ledger row, as saveReply writes them.
    await reply.query('begin');
    const message = await reply.query(
      `insert into story_messages (story_id, role, content, turn) values ($1, 'assistant', 'The lamp turns.', 2) returning id`,
      [storyId],
    );
    await reply.query(
      `insert into narrator_contexts (message_id, version, keyed, "on", record) values ($1, 1, '{}', '{}', '{"blocks": []}')`,
      [message.rows[0].id],
    );
    await reply.query(
      `insert into usage_events (user_id, story_id, message_id, kind, provider, model, input_tokens, output_tokens)
       values ($1, $2, $3, 'turn', 'builtin', 'fake', 10, 20)`,
      [userId, storyId, message.rows[0].id],
    );
    // The memory bank indexes the action meanwhile: its passages and terms wait for the reply's transaction.
    const indexed = repos.memoryBank.savePassages(storyId, [{ message: action, passages: passagesOf(action.content) }]);
    indexed.catch(() => undefined); // awaited below; a deadlock must fail the test, not the run
    await settledOrWaiting(observer, [pidOf(reply), pidOf(observer)], indexed);
    await reply.query('commit');
    await indexed;

    const after = await quotaCounters(ctx.database, userId);
    const afterKinds = await storedBytesByKind(ctx.database, userId);
    expect(after.counted).toEqual(after.actual);
    // Counted: the reply's message and record, and the action's passages and their terms.
    const added = (kind: StoredKind) => afterKinds[kind] - beforeKinds[kind];
    expect([added('messages'), added('contexts')]).toEqual(['The lamp turns.'.length, 2 + 2 + '{"blocks": []}'.length]);
    expect(added('passages')).toBeGreaterThan(0);
    expect(added('terms')).toBeGreaterThan(0);
  } finally {
    for (const connection of [reply, observer]) {
      await connection.query('rollback').catch(() => undefined);
      connection.release();
    }
  }
});
