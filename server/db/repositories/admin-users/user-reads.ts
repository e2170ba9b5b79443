// The admin's reads of users outside the table's page: every user in id-ordered batches for the
// CSV (keyset, so a long download costs the same per batch at its end as at its start), and the
// name heading one user's usage page.
import { asc, eq, gt } from 'drizzle-orm';
import type { Db } from '../../client';
import { users, userStats } from '../../schema';
import { MAX_ID } from '../sql-values';
import { columns, type AdminUserRow } from './user-columns';

export function userReads(db: Db) {
  return {
    /** Users with ids above `afterId`, in id order: the CSV walks the table in these batches (keyset, not OFFSET). */
    async batchAfter(afterId: number, limit: number, month: string): Promise<AdminUserRow[]> {
      return db
        .select(columns(month))
        .from(users)
        .innerJoin(userStats, eq(userStats.userId, users.id))
        .where(gt(users.id, afterId))
        .orderBy(asc(users.id))
        .limit(limit);
    },

    async findName(userId: number): Promise<{ id: number; username: string } | null> {
      if (userId > MAX_ID) return null;
      const [row] = await db.select({ id: users.id, username: users.username }).from(users).where(eq(users.id, userId));
      return row ?? null;
    },
  };
}
