// The memory bank's catch-up finds the shown messages still to index through a partial index, so
// its work is the messages it finds, not the story: asked through EXPLAIN ANALYZE on a story of
// 1,000 messages. Once it probed every message of the story for passages, and each fold's catch-up
// slowed as the story grew (bench:soak: 1.1 ms in the first minute, 5.3 ms in the seventh).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { passagesOf } from '@server/domains/story/memory/passages';
import { rowsReadBy } from '@server/test/rows-read';
import { createTestApp, registerUser, type TestContext } from '@server/test/test-app';
import { createRepositories } from '.';
import { unindexedQuery } from './memory-bank';

const MESSAGES = 1000;

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

/** A story of the opening and MESSAGES more, all indexed but the newest three and the 500th, whose shown version changed since. */
async function indexedStory(): Promise<{ storyId: number; ids: number[] }> {
  const { client } = await registerUser(ctx.app);
  const storyId = (await client.post('/api/story/start', { prompt: 'A ferry that crosses a lake no map shows' })).json()
    .storyId as number;
  // The opening's reply counts as indexed too.
  await ctx.database.executeSql(`update story_messages set indexed_version = version where story_id = $1`, [storyId]);
  await ctx.database.executeSql(
    `insert into story_messages (story_id, role, content, turn, attempts, indexed_version)
     select $1, case when g % 2 = 1 then 'user' else 'assistant' end, 'The ferryman hums at crossing ' || g, (g + 1) / 2 + 1, 1,
       case when g > ${MESSAGES - 3} then null else 1 end
     from generate_series(1, ${MESSAGES}) g`,
    [storyId],
  );
  const { rows } = await ctx.database.executeSql(
    `select id from story_messages where story_id = $1 and content like 'The ferryman%' order by id`,
    [storyId],
  );
  const ids = (rows as Array<{ id: number }>).map((r) => r.id);
  await ctx.database.executeSql(`update story_messages set version = 2, versions = 2 where id = $1`, [ids[499]]);
  return { storyId, ids };
}

it('finds the messages whose shown version has no passages, newest first, reading only them', async () => {
  const { storyId, ids } = await indexedStory();
  const repos = createRepositories(ctx.database.db);
  const found = await repos.memoryBank.unindexed(storyId, 40);
  expect(found.map((m) => m.id)).toEqual([ids[999], ids[998], ids[997], ids[499]]);
  expect(found.at(-1)?.version).toBe(2);
  // As a new database runs it and once analysed: the four found (the opening, never indexed, is
  // skipped by the index's condition), never the story's 1,000.
  for (const [when, rows] of Object.entries(await rowsReadBy(ctx, unindexedQuery(storyId, 40))))
    expect(rows, when).toBeLessThanOrEqual(8);
});

it('marks a message indexed at the version it read, and not one that changed since', async () => {
  const { storyId, ids } = await indexedStory();
  const repos = createRepositories(ctx.database.db);
  const [newest, , , changed] = await repos.memoryBank.unindexed(storyId, 40);
  // The 500th changes again after it was read: its passages are for a version it no longer shows.
  await ctx.database.executeSql(`update story_messages set version = 3, versions = 3 where id = $1`, [changed.id]);
  await repos.memoryBank.savePassages(
    storyId,
    [newest, changed].map((message) => ({ message, passages: passagesOf(message.content) })),
  );
  const left = await repos.memoryBank.unindexed(storyId, 40);
  expect(left.map((m) => m.id)).toEqual([ids[998], ids[997], ids[499]]);
  expect(left.at(-1)?.version).toBe(3);
});
