// Captcha challenges: the expected answer stays server side, found by the hash of the visitor's token.
import { and, eq, gt, lt } from 'drizzle-orm';
import type { Db } from '../client';
import { captchaChallenges } from '../schema';

export function createCaptchasRepository(db: Db) {
  return {
    async insert(record: { tokenHash: string; answer: number; expiresAt: Date }): Promise<void> {
      await db.insert(captchaChallenges).values(record);
    },

    /** Takes a live challenge out in one statement, so two requests can never both use it. */
    async take(tokenHash: string, now: Date): Promise<{ answer: number; expiresAt: Date } | null> {
      const [row] = await db
        .delete(captchaChallenges)
        .where(and(eq(captchaChallenges.tokenHash, tokenHash), gt(captchaChallenges.expiresAt, now)))
        .returning({ answer: captchaChallenges.answer, expiresAt: captchaChallenges.expiresAt });
      return row ?? null;
    },

    async delete(tokenHash: string): Promise<void> {
      await db.delete(captchaChallenges).where(eq(captchaChallenges.tokenHash, tokenHash));
    },

    async deleteExpired(now: Date): Promise<void> {
      await db.delete(captchaChallenges).where(lt(captchaChallenges.expiresAt, now));
    },
  };
}
export type CaptchasRepository = ReturnType<typeof createCaptchasRepository>;
