// `npm run admin -- grant|revoke <username>` run as the operator runs it, on an embedded data dir:
// a grant survives the next start's sync with a list that does not name the player; a revoke of a
// name ADMIN_USERNAMES lists says the next start grants it again; an unknown name and a data dir a
// server holds are refused with one line and exit code 1. (users-admins.api.test.ts has the rules.)
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '@server/db/client';
import { createRepositories } from '@server/db/repositories';
import { runOp } from '@server/test/run-op';
import { seededDataDir } from '@server/test/spawn-server';

let dataDir: string;
const open = async (): Promise<Database> => {
  const database = await openDatabase({ kind: 'pglite', dataDir });
  await database.migrate();
  return database;
};
describe('npm run admin', { timeout: 120_000 }, () => {
  beforeAll(async () => {
    // As a server's first start leaves it (migrated), copied rather than made again.
    dataDir = await seededDataDir('tw-admin-');
    const database = await open();
    const repos = createRepositories(database.db);
    for (const username of ['Alice', 'listed'])
      await repos.users.insert({ username, email: `${username}@example.com`, passwordHash: 'x', isAdmin: false });
    await database.close();
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('grants a right the next start keeps, revokes one, and refuses an unknown name or a held data dir', async () => {
    const granted = await runOp('admin', ['grant', 'alice'], { DATA_DIR: dataDir });
    expect(granted.output).toMatch(/^Alice is an admin now/);
    expect(granted.code).toBe(0);

    // A revoke of a name the list holds: done, and the operator is told the next start undoes it.
    const revoked = await runOp('admin', ['revoke', 'listed'], { DATA_DIR: dataDir, ADMIN_USERNAMES: 'listed' });
    expect(revoked.output.trim()).toBe(
      'listed is no longer an admin. ADMIN_USERNAMES lists listed: the next start grants it again unless you remove the name from it.',
    );
    expect(revoked.code).toBe(0);

    const unknown = await runOp('admin', ['grant', 'nobody'], { DATA_DIR: dataDir });
    expect(unknown.output.trim()).toBe('No account is named nobody: nothing was changed.');
    expect(unknown.code).toBe(1);

    const database = await open();
    try {
      const repos = createRepositories(database.db);
      const admins = async () => (await repos.users.listAll()).filter((u) => u.isAdmin).map((u) => u.username);
      expect(await admins()).toEqual(['Alice']);
      // What server/main.ts does at every start, with a list that does not name Alice.
      await repos.users.syncAdmins(['listed']);
      expect(await admins()).toEqual(['Alice', 'listed']);

      const held = await runOp('admin', ['revoke', 'alice'], { DATA_DIR: dataDir });
      expect(held.output).toMatch(/^Cannot change admin rights in the embedded database while the server runs on it/);
      expect(held.output.trim().split('\n')).toHaveLength(1);
      expect(held.code).toBe(1);
      expect(await admins()).toEqual(['Alice', 'listed']);
    } finally {
      await database.close();
    }
  });
});
