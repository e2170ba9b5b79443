// Cookie sessions: a random token goes to the browser, only its hash is stored. Expiry slides to
// 30 days after the last request; the extension (and the user's lastActive) is written at most
// once a minute so reads do not turn into writes.
// A session found in the database is remembered for SESSION_CACHE_MS: every API request resolves
// the cookie, and at a turn a second per player that lookup was a quarter of the database work on
// the time-to-first-word path. Ending a session (logout, password change) forgets it here at once
// and, with REDIS_URL, on every other instance too; several instances without Redis may honour an
// ended session for up to SESSION_CACHE_MS more (docs/operations.md, "One instance or several").
import type { Repositories } from '@server/db/repositories';
import type { Broadcast } from '@server/kernel/broadcast';
import { BoundedCache } from '@server/kernel/bounded-cache';
import { digestToken, newToken } from './bearer-tokens';

export const SESSION_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;
export const ACTIVITY_WRITE_INTERVAL_MS = 60_000;
/** How long a session read from the database is trusted without reading it again. */
export const SESSION_CACHE_MS = 10_000;
/** Remembered sessions at most (the least recently used are forgotten first). */
const SESSION_CACHE_ENTRIES = 20_000;

export interface ResolvedSession {
  userId: number;
  tokenHash: string;
  /** True when the expiry moved, so the cookie should be sent again with a fresh Max-Age. */
  extended: boolean;
}

/** The Broadcast name on which instances hear of ended sessions. */
export const SESSION_ENDINGS = 'session-ended';

interface Remembered {
  userId: number;
  expiresAt: number;
  lastSeenAt: number;
  readAt: number;
}

/** `endings` tells the other instances of ended sessions: `t:<tokenHash>` for one, `u:<userId>` for all of a user's. */
export function createSessionService(
  repos: Pick<Repositories, 'sessions' | 'users'>,
  now: () => Date,
  endings: Broadcast | null = null,
) {
  const remembered = new BoundedCache<string, Remembered>(SESSION_CACHE_ENTRIES);

  function forget(ending: string): void {
    if (ending.startsWith('t:')) remembered.delete(ending.slice(2));
    else if (ending.startsWith('u:')) {
      const userId = Number(ending.slice(2));
      remembered.deleteWhere((entry) => entry.userId === userId);
    }
  }

  async function end(ending: string): Promise<void> {
    forget(ending);
    await endings?.announce(ending);
  }

  async function lookUp(tokenHash: string, at: number): Promise<Remembered | null> {
    const known = remembered.get(tokenHash);
    if (known && at - known.readAt < SESSION_CACHE_MS && known.expiresAt > at) return known;
    const session = await repos.sessions.findValid(tokenHash, new Date(at));
    if (!session) {
      remembered.delete(tokenHash);
      return null;
    }
    const entry = {
      userId: session.userId,
      expiresAt: session.expiresAt.getTime(),
      lastSeenAt: session.lastSeenAt.getTime(),
      readAt: at,
    };
    remembered.set(tokenHash, entry);
    return entry;
  }

  return {
    /** Listens for sessions ended on other instances (with Redis). */
    async start(): Promise<void> {
      await endings?.listen(forget);
    },

    async create(userId: number): Promise<{ token: string; tokenHash: string }> {
      const token = newToken();
      const tokenHash = digestToken(token);
      const at = now();
      await repos.sessions.insert({
        tokenHash,
        userId,
        now: at,
        expiresAt: new Date(at.getTime() + SESSION_LIFETIME_MS),
      });
      // Logging in is activity: without this a player who plays for under a minute is never "active".
      await repos.users.touchLastActive(userId, at, ACTIVITY_WRITE_INTERVAL_MS);
      return { token, tokenHash };
    },

    async resolve(token: string): Promise<ResolvedSession | null> {
      const at = now();
      const tokenHash = digestToken(token);
      const session = await lookUp(tokenHash, at.getTime());
      if (!session) return null;
      const due = at.getTime() - session.lastSeenAt >= ACTIVITY_WRITE_INTERVAL_MS;
      if (due) {
        const expiresAt = new Date(at.getTime() + SESSION_LIFETIME_MS);
        await repos.sessions.extend(tokenHash, expiresAt, at);
        await repos.users.touchLastActive(session.userId, at, ACTIVITY_WRITE_INTERVAL_MS);
        remembered.set(tokenHash, { ...session, expiresAt: expiresAt.getTime(), lastSeenAt: at.getTime() });
      }
      return { userId: session.userId, tokenHash, extended: due };
    },

    async end(tokenHash: string): Promise<void> {
      await repos.sessions.delete(tokenHash);
      await end(`t:${tokenHash}`);
    },

    /** Ends all of a user's sessions, here and on every instance (a deleted account). */
    async endAllFor(userId: number): Promise<void> {
      await repos.sessions.deleteAllForUser(userId);
      await end(`u:${userId}`);
    },

    /** Ends all of a user's sessions and opens a new one (password change). */
    async rotate(userId: number, currentTokenHash: string | null): Promise<{ token: string; tokenHash: string }> {
      if (currentTokenHash) await repos.sessions.delete(currentTokenHash);
      await repos.sessions.deleteAllForUser(userId);
      await end(`u:${userId}`);
      return this.create(userId);
    },
  };
}
export type SessionService = ReturnType<typeof createSessionService>;
