// Admin rights: ADMIN_USERNAMES makes the names it lists admins at every start and takes the right
// from list-granted admins it no longer lists, but never from one granted from the command line
// (`npm run admin`, a row in admin_grants) until revoked there.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '@server/test/test-app';
import type { Database } from '../client';
import { createRepositories, type Repositories } from '.';

let database: Database;
let repos: Repositories;
beforeAll(async () => {
  database = await openTestDatabase();
  repos = createRepositories(database.db);
});
afterAll(() => database.close());

let n = 0;
async function user(name: string, isAdmin = false) {
  n += 1;
  return repos.users.insert({ username: `${name}${n}`, email: `${name}${n}@example.com`, passwordHash: 'x', isAdmin });
}
const isAdmin = async (id: number) => (await repos.users.findById(id))!.isAdmin;
/** 'command' when admin_grants holds the player (a command-line grant), else null. */
const grantOf = async (id: number) =>
  (await database.executeSql('select 1 from admin_grants where user_id = $1', [id])).rows.length > 0 ? 'command' : null;

describe('syncAdmins', () => {
  it('grants the listed names (any case) and revokes list admins no longer listed', async () => {
    const listed = await user('Listed');
    const dropped = await user('dropped', true);
    const player = await user('player');
    expect(await grantOf(dropped.id)).toBeNull();
    await repos.users.syncAdmins([listed.username.toLowerCase()]);
    expect(await isAdmin(listed.id)).toBe(true);
    expect(await grantOf(listed.id)).toBeNull();
    expect(await isAdmin(dropped.id)).toBe(false);
    expect(await isAdmin(player.id)).toBe(false);
    await repos.users.syncAdmins([]);
    expect(await isAdmin(listed.id)).toBe(false);
  });

  it('keeps a command-line grant whatever the list says, until a command-line revoke', async () => {
    const chosen = await user('chosen');
    const granted = await repos.users.setAdminByCommand(chosen.username.toUpperCase(), true);
    expect(granted).toMatchObject({ id: chosen.id, isAdmin: true });
    expect(await grantOf(chosen.id)).toBe('command');
    await repos.users.syncAdmins(['someone-else']);
    expect(await isAdmin(chosen.id)).toBe(true);
    await repos.users.syncAdmins([]);
    expect(await isAdmin(chosen.id)).toBe(true);
    // Listed as well: still a command grant, so dropping it from the list later keeps it.
    await repos.users.syncAdmins([chosen.username]);
    await repos.users.syncAdmins([]);
    expect(await isAdmin(chosen.id)).toBe(true);

    await repos.users.setAdminByCommand(chosen.username, false);
    expect(await isAdmin(chosen.id)).toBe(false);
    await repos.users.syncAdmins([chosen.username]);
    expect(await isAdmin(chosen.id)).toBe(true);
    expect(await grantOf(chosen.id)).toBeNull();
  });

  it('answers null for a name no account has', async () => {
    expect(await repos.users.setAdminByCommand('nobody-has-this-name', true)).toBeNull();
  });
});
