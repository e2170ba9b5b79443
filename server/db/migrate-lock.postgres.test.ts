// Instances started together on one empty PostgreSQL take turns with the migrations (an advisory
// lock, db/client.ts): both start, and every migration is applied exactly once.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from './client';

const BASE_DATABASE_URL = process.env.TEST_DATABASE_URL;

describe.skipIf(!BASE_DATABASE_URL)('migrations on PostgreSQL', () => {
  const name = `tw_migrate_${randomBytes(4).toString('hex')}`;
  let url: string;
  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: BASE_DATABASE_URL });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const target = new URL(BASE_DATABASE_URL!);
    target.pathname = `/${name}`;
    url = target.toString();
  });
  afterAll(async () => {
    const admin = new pg.Client({ connectionString: BASE_DATABASE_URL });
    await admin.connect();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  });

  it('are applied once when three instances start at the same moment', async () => {
    const instances = await Promise.all([1, 2, 3].map(() => openDatabase({ kind: 'postgres', url, poolSize: 2 })));
    try {
      const outcomes = await Promise.allSettled(instances.map((database) => database.migrate()));
      expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
      const { rows } = await instances[0].executeSql(
        'select count(*)::int as n, count(distinct hash)::int as distinct_n from drizzle.__drizzle_migrations',
      );
      const { n, distinct_n } = rows[0] as { n: number; distinct_n: number };
      expect(n).toBe(distinct_n);
      // Every migration file, each once (without the lock two of the three starts failed here).
      expect(n).toBeGreaterThanOrEqual(28);
    } finally {
      await Promise.all(instances.map((database) => database.close()));
    }
  }, 60_000);
});
