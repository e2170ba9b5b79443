// Cookie sessions: a random token goes to the browser, only its hash is stored. Expiry slides to
// 30 days after the last request; the extension (and the user's lastActive) is written at most
// once a minute so reads do not turn into writes.
import type { Repositories } from '@server/db/repositories';
import { digestToken, newToken } from './tokens';

export const SESSION_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;
export const ACTIVITY_WRITE_INTERVAL_MS = 60_000;

export interface ResolvedSession {
  userId: number;
  tokenHash: string;
  /** True when the expiry moved, so the cookie should be sent again with a fresh Max-Age. */
  extended: boolean;
}

export function createSessionService(repos: Pick<Repositories, 'sessions' | 'users'>, now: () => Date) {
  return {
    async create(userId: number): Promise<{ token: string; tokenHash: string }> {
      const token = newToken();
      const tokenHash = digestToken(token);
      const at = now();
      await repos.sessions.insert({ tokenHash, userId, now: at, expiresAt: new Date(at.getTime() + SESSION_LIFETIME_MS) });
      // Logging in is activity: without this a player who plays for under a minute is never "active".
      await repos.users.touchLastActive(userId, at, ACTIVITY_WRITE_INTERVAL_MS);
      return { token, tokenHash };
    },

    async resolve(token: string): Promise<ResolvedSession | null> {
      const at = now();
      const tokenHash = digestToken(token);
      const session = await repos.sessions.findValid(tokenHash, at);
      if (!session) return null;
      const due = at.getTime() - session.lastSeenAt.getTime() >= ACTIVITY_WRITE_INTERVAL_MS;
      if (due) {
        await repos.sessions.extend(tokenHash, new Date(at.getTime() + SESSION_LIFETIME_MS), at);
        await repos.users.touchLastActive(session.userId, at, ACTIVITY_WRITE_INTERVAL_MS);
      }
      return { userId: session.userId, tokenHash, extended: due };
    },

    async end(tokenHash: string): Promise<void> {
      await repos.sessions.delete(tokenHash);
    },

    /** Ends all of a user's sessions and opens a new one (password change). */
    async rotate(userId: number, currentTokenHash: string | null): Promise<{ token: string; tokenHash: string }> {
      if (currentTokenHash) await repos.sessions.delete(currentTokenHash);
      await repos.sessions.deleteAllForUser(userId);
      return this.create(userId);
    },
  };
}
export type SessionService = ReturnType<typeof createSessionService>;
