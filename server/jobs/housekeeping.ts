// Hourly clean-up of rows that only matter for a while: expired sessions and captchas, rate-limit
// events older than any window, allowance reservations of calls that can no longer be running and
// the hidden stories and shares whose writing never finished.
// Safe to run on every instance at once. On the embedded database it also vacuums the tables every
// turn updates: PGlite runs as a standalone backend with no autovacuum worker, so without this the usage rollups and leases would only ever grow.
import type { Logger } from 'pino';
import type { Repositories } from '@server/db/repositories';

const HOUR_MS = 60 * 60_000;
const DAY_MS = 24 * HOUR_MS;

export async function cleanExpired(repos: Repositories, now: Date): Promise<void> {
  await repos.sessions.deleteExpired(now);
  await repos.captchas.deleteExpired(now);
  await repos.rateLimits.deleteOlderThan(new Date(now.getTime() - DAY_MS));
  await repos.allowance.deleteExpired(now);
  // An import or a share takes seconds to write; one begun an hour ago belonged to a process that died.
  await repos.storyFiles.deleteAbandonedImports(new Date(now.getTime() - HOUR_MS));
  await repos.shares.deleteAbandoned(new Date(now.getTime() - HOUR_MS));
}

/** The tables rewritten on every turn (rollups, story leases), at sign-in (users, whose statistics steer the trigram search) or emptied hourly; PostgreSQL's autovacuum covers them itself. */
export const PGLITE_VACUUM_SQL =
  'VACUUM (ANALYZE) users, user_stats, usage_daily, user_usage_monthly, stories, sessions, captcha_challenges, rate_limit_events, usage_holds';

export function startHousekeeping(
  repos: Repositories,
  now: () => Date,
  logger: Logger,
  vacuum?: () => Promise<unknown>,
): () => void {
  const run = async () => {
    try {
      await cleanExpired(repos, now());
      await vacuum?.();
    } catch (err) {
      logger.warn({ err }, 'housekeeping failed');
    }
  };
  void run();
  const timer = setInterval(run, HOUR_MS);
  timer.unref();
  return () => clearInterval(timer);
}
