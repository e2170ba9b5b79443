// The admin users table's reads: one page of users with their stats, searched, sorted and counted
// on the server (users-table.ts), and every user in id-ordered batches for the CSV and one user's
// name (user-reads.ts), each reading a user as user-columns.ts selects one.
import type { Db } from '../../client';
import { userReads } from './user-reads';
import { usersTable } from './users-table';

export type { AdminUserRow } from './user-columns';
export type { AdminUserFilter, AdminUserPageQuery, AdminUserTotalsRow } from './users-table';

export function createAdminUsersRepository(db: Db) {
  return { ...usersTable(db), ...userReads(db) };
}
export type AdminUsersRepository = ReturnType<typeof createAdminUsersRepository>;
