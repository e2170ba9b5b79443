// On PostgreSQL the pool opens every connection before the first request and keeps them: a burst
// after a quiet spell opened them all at once (a backend process each), every query meanwhile
// waiting for one (bench:abuse's parallel-starts, docs/benchmarks.md). PGlite has no pool to warm:
// this file runs in the PostgreSQL project alone (vitest.config.ts).
import { describe, expect, it } from 'vitest';
import { openTestDatabase } from '@server/test/test-app';

describe('the PostgreSQL pool', () => {
  it('has all its connections open before any query, and keeps them', async () => {
    const database = await openTestDatabase();
    try {
      const countOwn = async () => {
        const result = await database.executeSql(
          'select count(*)::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
        );
        return (result.rows[0] as { n: number }).n;
      };
      // The query's own connection is one of the four: three others are open.
      expect(await countOwn()).toBe(3);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await countOwn()).toBe(3);
    } finally {
      await database.close();
    }
  });
});
