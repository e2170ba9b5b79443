// Sessions table access, keyed by the SHA-256 of the cookie token (never the token itself).
import { and, eq, gt, lt, ne } from 'drizzle-orm';
import type { Db } from '../client';
import { sessions } from '../schema';

export interface SessionRecord {
  tokenHash: string;
  userId: number;
  expiresAt: Date;
  lastSeenAt: Date;
}

export function createSessionsRepository(db: Db) {
  return {
    async insert(record: { tokenHash: string; userId: number; expiresAt: Date; now: Date }): Promise<void> {
      await db.insert(sessions).values({
        tokenHash: record.tokenHash,
        userId: record.userId,
        expiresAt: record.expiresAt,
        createdAt: record.now,
        lastSeenAt: record.now,
      });
    },

    async findValid(tokenHash: string, now: Date): Promise<SessionRecord | null> {
      const [row] = await db
        .select({
          tokenHash: sessions.tokenHash,
          userId: sessions.userId,
          expiresAt: sessions.expiresAt,
          lastSeenAt: sessions.lastSeenAt,
        })
        .from(sessions)
        .where(and(eq(sessions.tokenHash, tokenHash), gt(sessions.expiresAt, now)));
      return row ?? null;
    },

    async extend(tokenHash: string, expiresAt: Date, now: Date): Promise<void> {
      await db.update(sessions).set({ expiresAt, lastSeenAt: now }).where(eq(sessions.tokenHash, tokenHash));
    },

    async delete(tokenHash: string): Promise<void> {
      await db.delete(sessions).where(eq(sessions.tokenHash, tokenHash));
    },

    /** Ends every other session of the user (after a password change). */
    async deleteOthers(userId: number, keepTokenHash: string): Promise<void> {
      await db.delete(sessions).where(and(eq(sessions.userId, userId), ne(sessions.tokenHash, keepTokenHash)));
    },

    async deleteAllForUser(userId: number): Promise<void> {
      await db.delete(sessions).where(eq(sessions.userId, userId));
    },

    async deleteExpired(now: Date): Promise<void> {
      await db.delete(sessions).where(lt(sessions.expiresAt, now));
    },

    async countForUser(userId: number): Promise<number> {
      const rows = await db.select({ tokenHash: sessions.tokenHash }).from(sessions).where(eq(sessions.userId, userId));
      return rows.length;
    },
  };
}
export type SessionsRepository = ReturnType<typeof createSessionsRepository>;
