// Migration 0031 on the statistics an earlier release kept: a story of more terms than a story now
// keeps keeps those most of its passages hold and is saturated, every other story keeps all its
// terms with their count, and the changes deleted stories left behind go while a live story's stay.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MAX_STORY_TERMS } from '@server/db/repositories/memory-statistics';
import { migrateThrough } from '@server/test/migrate-through';
import { createTestApp, openEmptyTestDatabase, registerUser, type TestContext } from '@server/test/test-app';
import type { Database } from './client';

let older: Database;
let app: TestContext;
beforeAll(async () => {
  older = await openEmptyTestDatabase();
  await migrateThrough(older, '0029_rollup_lock_order');
  app = await createTestApp({}, { database: older });
});
afterAll(() => app.close());

const rows = async <Row>(sql: string, values: unknown[] = []) => (await older.executeSql(sql, values)).rows as Row[];

it('trims a story over the cap to its most held terms, counts every story’s terms, and drops orphaned changes', async () => {
  const { id: userId } = await registerUser(app.app);
  const [wordy, plain] = await rows<{ id: number }>(
    `insert into stories (user_id, premise) values ($1, 'A file of random words'), ($1, 'A lighthouse') returning id`,
    [userId],
  );
  // The wordy story: 200 terms held by 3 passages, and MAX_STORY_TERMS more held by one.
  await older.executeSql(
    `insert into memory_terms (story_id, term, holding)
     select $1::int, 'common' || g, 3 from generate_series(1, 200) g
     union all select $1::int, 'rare' || g, 1 from generate_series(1, ${MAX_STORY_TERMS}) g`,
    [wordy.id],
  );
  await older.executeSql(
    `insert into memory_terms (story_id, term, holding) values ($1, 'lamp', 4), ($1, 'keeper', 2), ($1, 'storm', 1)`,
    [plain.id],
  );
  await older.executeSql(
    `insert into memory_totals (story_id, passages, length) values ($1, 9000, 500000), ($2, 6, 240)`,
    [wordy.id, plain.id],
  );
  await older.executeSql(
    `insert into memory_deltas (story_id, term, holding, length) values ($1, 'lamp', -1, 0), ($1, '', -1, -40),
       ($2 + 1000, 'gone', -1, 0), ($2 + 1000, '', -5, -200)`,
    [plain.id, wordy.id],
  );

  await older.migrate();

  expect(
    await rows('select story_id, passages, length::int, terms, saturated from memory_totals order by story_id'),
  ).toEqual([
    { story_id: wordy.id, passages: 9000, length: 500000, terms: MAX_STORY_TERMS, saturated: true },
    { story_id: plain.id, passages: 6, length: 240, terms: 3, saturated: false },
  ]);
  const [kept] = await rows<{ all: number; common: number }>(
    `select count(*)::int as all, count(*) filter (where term like 'common%')::int as common from memory_terms where story_id = $1`,
    [wordy.id],
  );
  expect(kept).toEqual({ all: MAX_STORY_TERMS, common: 200 });
  expect(await rows('select term, holding from memory_terms where story_id = $1 order by term', [plain.id])).toEqual([
    { term: 'keeper', holding: 2 },
    { term: 'lamp', holding: 4 },
    { term: 'storm', holding: 1 },
  ]);
  expect(await rows('select story_id, term, holding from memory_deltas order by id')).toEqual([
    { story_id: plain.id, term: 'lamp', holding: -1 },
    { story_id: plain.id, term: '', holding: -1 },
  ]);
});
