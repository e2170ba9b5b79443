// Sliding-window limits over events stored in the database, so every app instance counts the same
// attempts and the counts survive restarts. Kept for what needs that: failed logins (per account and
// per IP) and registrations (per IP). Every other limit is counted off the database, per request,
// in request-limits.ts: a database write per captcha or shared read capped them near 400 a second.
// Callers key per-IP limits by ipKey(ip) (request-limits.ts), as every other IP limit is: an
// IPv6 /64 is one address, or a host handed a /64 could rotate past any limit.
import type { Repositories } from '@server/db/repositories';
import type { Metrics } from '@server/kernel/metrics';

export interface Limit {
  bucket: string;
  max: number;
  windowMs: number;
}

export function createSignInLimiter(
  repos: Pick<Repositories, 'rateLimits'>,
  now: () => Date,
  metrics?: Pick<Metrics, 'limitRefused'>,
) {
  /**
   * Counts an attempt before it is made: concurrent attempts each see the others, so a burst
   * cannot slip under the limit. `over` when this one is past it; forget() takes it back.
   */
  async function take(limit: Limit, key: string): Promise<{ id: number; over: boolean }> {
    const id = await repos.rateLimits.record(limit.bucket, key, now());
    const since = new Date(now().getTime() - limit.windowMs);
    return { id, over: (await repos.rateLimits.countSince(limit.bucket, key, since)) > limit.max };
  }

  async function forget(attempt: { id: number }): Promise<void> {
    await repos.rateLimits.remove(attempt.id);
  }

  return {
    /** True when `key` has already used up the limit within the window. */
    async isExceeded(limit: Limit, key: string): Promise<boolean> {
      const since = new Date(now().getTime() - limit.windowMs);
      const exceeded = (await repos.rateLimits.countSince(limit.bucket, key, since)) >= limit.max;
      if (exceeded) metrics?.limitRefused(limit.bucket);
      return exceeded;
    },

    /** Counts a refusal the caller decided from take()'s answers (a login over its limit). */
    refused(limit: Limit): void {
      metrics?.limitRefused(limit.bucket);
    },

    async hit(limit: Limit, key: string): Promise<void> {
      await repos.rateLimits.record(limit.bucket, key, now());
    },

    take,
    forget,

    async reset(limit: Limit, key: string): Promise<void> {
      await repos.rateLimits.clear(limit.bucket, key);
    },
  };
}
export type SignInLimiter = ReturnType<typeof createSignInLimiter>;
