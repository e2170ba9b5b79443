// The monthly allowance in the database: what a player has used of it this month (their stats row:
// the tokens models reported, plus speech and transcription as allowance tokens) and the reservations
// of paid calls in flight (usage_holds). A reservation is taken only while the month's use plus the
// others in flight is under the limit, under a per-player lock, so every instance sees the same count
// and parallel calls cannot all pass on one remaining balance.
import { eq, lte, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { usageHolds } from '../schema';
import { rows } from './sql-values';
import { monthKey } from './usage';

/** The first key of pg_advisory_xact_lock(int, int): this lock's namespace (the second is the player). */
const ALLOWANCE_LOCK_NAMESPACE = 23_001;

export interface HoldRequest {
  userId: number;
  tokens: number;
  limit: number;
  now: Date;
  expiresAt: Date;
}

export function createAllowanceRepository(db: Db) {
  const used = (userId: number, now: Date) => {
    const month = monthKey(now);
    return sql`coalesce((select (case when s.month = ${month} then s.month_tokens else 0 end)
        + (case when s.speech_month = ${month} then s.month_speech_tokens else 0 end)
      from user_stats s where s.user_id = ${userId}), 0)`;
  };
  const held = (userId: number, now: Date) =>
    sql`coalesce((select sum(h.tokens) from usage_holds h where h.user_id = ${userId} and h.expires_at > ${now.toISOString()}::timestamptz), 0)`;

  return {
    /** Allowance tokens the player used this month, and what their calls in flight have reserved. */
    async usage(userId: number, now: Date): Promise<{ used: number; held: number }> {
      const [row] = await rows<{ used: string; held: string }>(
        db,
        sql`select ${used(userId, now)} as used, ${held(userId, now)} as held`,
      );
      return { used: Number(row.used), held: Number(row.held) };
    },

    /**
     * Reserves `tokens` for a call when the month's use plus the reservations in flight is under the
     * limit (so the allowance is overshot by one call at most); the reservation's id, or null when refused.
     * Two statements in a transaction: the second must see what a call that held the lock before it wrote.
     */
    async reserve(input: HoldRequest): Promise<number | null> {
      return db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(${ALLOWANCE_LOCK_NAMESPACE}::int, ${input.userId}::int)`);
        const [row] = await rows<{ id: number }>(
          tx,
          sql`insert into usage_holds (user_id, tokens, expires_at)
              select ${input.userId}, ${input.tokens}, ${input.expiresAt.toISOString()}::timestamptz
              where ${used(input.userId, input.now)} + ${held(input.userId, input.now)} < ${input.limit}
              returning id`,
        );
        return row ? Number(row.id) : null;
      });
    },

    async release(id: number): Promise<void> {
      await db.delete(usageHolds).where(eq(usageHolds.id, id));
    },

    /** Reservations whose call can no longer be running (its process died): housekeeping. */
    async deleteExpired(now: Date): Promise<number> {
      const gone = await db.delete(usageHolds).where(lte(usageHolds.expiresAt, now)).returning({ id: usageHolds.id });
      return gone.length;
    },
  };
}
export type AllowanceRepository = ReturnType<typeof createAllowanceRepository>;
