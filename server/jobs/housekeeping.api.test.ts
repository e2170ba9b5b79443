// Housekeeping on a real database: expired rows go, and the vacuum statement the embedded database
// runs hourly is valid SQL that leaves the rollups without the dead rows every turn leaves behind.
import pino from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createRepositories } from '@server/db/repositories';
import { openTestDatabase } from '@server/test/test-app';
import type { Database } from '@server/db/client';
import { PGLITE_VACUUM_SQL, startHousekeeping } from './housekeeping';

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

const statsOf = async (table: string) =>
  (
    await database.executeSql(
      'select n_dead_tup::int as dead, last_vacuum from pg_stat_user_tables where relname = $1',
      [table],
    )
  ).rows[0] as { dead: number; last_vacuum: Date | null };

it('vacuums the rollups that every ledger row rewrites', async () => {
  const repos = createRepositories(database.db);
  await database.executeSql("insert into users (username, password_hash) values ('keeper', 'x')");
  const [{ id }] = (await database.executeSql("select id from users where username = 'keeper'")).rows as Array<{
    id: number;
  }>;
  for (let i = 0; i < 25; i++)
    await repos.usage.record({ userId: id, provider: 'builtin', model: 'm', inputTokens: 10 });
  expect((await repos.usage.totalsForUser(id, new Date())).textTokens).toBe(250);

  let vacuumed!: () => void;
  const done = new Promise<void>((resolve) => (vacuumed = resolve));
  const stop = startHousekeeping(
    repos,
    () => new Date(),
    pino({ level: 'silent' }),
    async () => {
      // PGlite's one backend made the updates, and it sends their counts to the statistics at most
      // once a second: sent after the VACUUM, they would count its removed rows as dead again.
      await database.executeSql('select pg_stat_force_next_flush()');
      await database.executeSql(PGLITE_VACUUM_SQL);
      vacuumed();
    },
  );
  await done;
  stop();
  await expect.poll(async () => (await statsOf('user_stats')).last_vacuum).not.toBeNull();
  expect((await statsOf('user_stats')).dead).toBe(0);
  // The figures are the same after the rewrite.
  expect((await repos.usage.totalsForUser(id, new Date())).textTokens).toBe(250);
});
