// A turn's opening statement reads what the turn needs (the story's newest message and the window
// after its memory), never the whole story: asked through EXPLAIN ANALYZE on a story of 1,000
// messages, as the database runs it. Once it read every message and sorted them to find the newest
// (the planner's choice for a join, with no statistics), and a turn slowed as its story grew. With
// nothing folded (an imported story), the window and a fold's piece are read capped: an index walk
// that stops after the cap's rows, never the unfolded story.
import type { SQL } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { computeBudget } from '@server/ai/llm/context';
import { windowLimits } from '@server/ai/llm/fold';
import { rowsReadBy as rowsReadByStatement } from '@server/test/rows-read';
import { createTestApp, registerUser, type TestContext } from '@server/test/test-app';
import { leaseAndAppendQuery, oldestUnfoldedQuery, recentUnfoldedQuery } from './story-turn';

const MESSAGES = 1000;
const WINDOW = 20;

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

const rowsReadBy = (query: SQL) => rowsReadByStatement(ctx, query);

/** A story of the opening and MESSAGES more messages ("Turn 1", "Turn 2"...), through the API and then the database. */
async function longStory(prompt: string): Promise<{ userId: number; storyId: number }> {
  const { client, id: userId } = await registerUser(ctx.app);
  const storyId = (await client.post('/api/story/start', { prompt })).json().storyId as number;
  await ctx.database.executeSql(
    `insert into story_messages (story_id, role, content, turn, attempts)
     select $1, case when g % 2 = 1 then 'user' else 'assistant' end, 'Turn ' || g, (g + 1) / 2 + 1, 1 from generate_series(1, ${MESSAGES}) g`,
    [storyId],
  );
  return { userId, storyId };
}

it('reads the newest message and the window of a 1,000-message story, not the story', async () => {
  const { userId, storyId } = await longStory('A lighthouse that keeps every ship it has ever guided');
  // The memory covers all but the last WINDOW messages, as folds leave it.
  await ctx.database.executeSql(
    `update stories set memory = 'Long ago...', memory_through_id = (select id from story_messages where story_id = $1 order by id desc offset ${WINDOW} limit 1) where id = $1`,
    [storyId],
  );

  const now = new Date();
  const read = await rowsReadBy(
    leaseAndAppendQuery({
      storyId,
      userId,
      content: 'I climb the stairs',
      now,
      until: new Date(now.getTime() + 60_000),
      window: windowLimits(computeBudget(8192, 500)),
      maxStoredBytes: 500 * 1024 * 1024,
    }),
  );
  // As a new database runs it (no statistics: PGlite never analyses on its own) and once analysed:
  // the newest message (1) and the window (WINDOW), a handful more at most, never the story.
  for (const [when, rows] of Object.entries(read)) expect(rows, when).toBeLessThanOrEqual(WINDOW + 5);
});

it('reads a capped window of a 1,000-message story with nothing folded, for a turn, a retry and a fold', async () => {
  const { userId, storyId } = await longStory('A valley where every road leads back to the same inn');
  const cap = { rows: WINDOW, bytes: 1_000_000 };
  const now = new Date();
  const queries = {
    turn: leaseAndAppendQuery({
      storyId,
      userId,
      content: 'I knock',
      now,
      until: new Date(now.getTime() + 60_000),
      window: cap,
      maxStoredBytes: 500 * 1024 * 1024,
    }),
    retry: recentUnfoldedQuery(storyId, 0, 2_000_000_000, cap),
    fold: oldestUnfoldedQuery(storyId, 0, 2_000_000_000, cap),
  };
  for (const [name, query] of Object.entries(queries)) {
    // The newest message (a turn's), the cap's rows and the one that tells more exist: never the story.
    for (const [when, rows] of Object.entries(await rowsReadBy(query))) {
      expect(rows, `${name}, ${when}`).toBeGreaterThanOrEqual(WINDOW);
      expect(rows, `${name}, ${when}`).toBeLessThanOrEqual(WINDOW + 5);
    }
  }
});
