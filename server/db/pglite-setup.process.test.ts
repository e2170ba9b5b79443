// The embedded database as main.ts opens it: a new DATA_DIR is created by a child process and then
// opened here with the memory settings; a data dir that cannot be created fails with a clear error.
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from './client';
import { initDataDirInChild } from './pglite-setup';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'tw-pglite-setup-'));
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe('the embedded database', () => {
  it('creates a new data dir in a child process and opens it with the memory settings', async () => {
    const dataDir = join(root, 'fresh');
    const database = await openDatabase({ kind: 'pglite', dataDir });
    try {
      expect((await stat(join(dataDir, 'pgdata', 'PG_VERSION'))).isFile()).toBe(true);
      const { rows } = await database.executeSql(
        "select current_setting('shared_buffers') as buffers, current_setting('maintenance_work_mem') as maintenance",
      );
      expect(rows).toEqual([{ buffers: '8MB', maintenance: '16MB' }]);
      await database.migrate();
      expect((await database.executeSql('select count(*)::int as n from users')).rows).toEqual([{ n: 0 }]);
    } finally {
      await database.close();
    }
  }, 60_000);

  it('reports a data dir that cannot be created', async () => {
    const blocked = join(root, 'not-a-directory');
    await writeFile(blocked, 'a file where the data dir should be');
    await expect(initDataDirInChild(blocked)).rejects.toThrow(/Could not create the database in .*not-a-directory/);
  }, 60_000);
});
