// Counted events for the abuse limits (failed logins, registrations), shared by every app instance.
import { and, count, eq, gt, lt } from 'drizzle-orm';
import type { Db } from '../client';
import { rateLimitEvents } from '../schema';

export function createRateLimitsRepository(db: Db) {
  return {
    async record(bucket: string, key: string, now: Date): Promise<number> {
      const [row] = await db
        .insert(rateLimitEvents)
        .values({ bucket, key, createdAt: now })
        .returning({ id: rateLimitEvents.id });
      return row.id;
    },

    async remove(id: number): Promise<void> {
      await db.delete(rateLimitEvents).where(eq(rateLimitEvents.id, id));
    },

    async countSince(bucket: string, key: string, since: Date): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(rateLimitEvents)
        .where(
          and(eq(rateLimitEvents.bucket, bucket), eq(rateLimitEvents.key, key), gt(rateLimitEvents.createdAt, since)),
        );
      return Number(row?.n ?? 0);
    },

    async clear(bucket: string, key: string): Promise<void> {
      await db.delete(rateLimitEvents).where(and(eq(rateLimitEvents.bucket, bucket), eq(rateLimitEvents.key, key)));
    },

    async deleteOlderThan(before: Date): Promise<void> {
      await db.delete(rateLimitEvents).where(lt(rateLimitEvents.createdAt, before));
    },
  };
}
export type RateLimitsRepository = ReturnType<typeof createRateLimitsRepository>;
