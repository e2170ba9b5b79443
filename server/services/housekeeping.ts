// Hourly clean-up of rows that only matter for a while: expired sessions and captchas, and
// rate-limit events older than any window. Safe to run on every instance at once.
import type { Logger } from 'pino';
import type { Repositories } from '@server/db/repositories';

const HOUR_MS = 60 * 60_000;
const DAY_MS = 24 * HOUR_MS;

export async function cleanExpired(repos: Repositories, now: Date): Promise<void> {
  await repos.sessions.deleteExpired(now);
  await repos.captchas.deleteExpired(now);
  await repos.rateLimits.deleteOlderThan(new Date(now.getTime() - DAY_MS));
}

export function startHousekeeping(repos: Repositories, now: () => Date, logger: Logger): () => void {
  const run = () => cleanExpired(repos, now()).catch((err) => logger.warn({ err }, 'housekeeping failed'));
  void run();
  const timer = setInterval(run, HOUR_MS);
  timer.unref();
  return () => clearInterval(timer);
}
