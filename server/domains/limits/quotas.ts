// Account quotas as the services meet them: the answer a refused write gets (429 for a
// count, 413 for stored bytes, each naming its limit), a cheap check before work a full account
// would throw away, and the account page's GET /api/user/limits. The exact checks happen inside
// each write's own transaction (server/db/repositories/quotas.ts), so parallel writes cannot pass
// a limit together; the checks here only spare the work of a write that is sure to be refused.
import { BYTES_PER_MB, type QuotaLimits } from '@server/kernel/config';
import type { Repositories } from '@server/db/repositories';
import { QuotaExceeded, quotaOver, type Quota } from '@server/db/repositories/quotas';
import { DomainError } from '@server/kernel/errors';
import { ERROR_CODES } from '@shared/schemas/common';
import { QUOTA_MESSAGES, type UserLimits } from '@shared/schemas/quotas';

interface QuotaDeps {
  repos: Repositories;
  limits: QuotaLimits;
  /** USER_MONTHLY_TOKEN_LIMIT, shown beside the quotas; null is unlimited. */
  monthlyTokenLimit: number | null;
  now: () => Date;
}

/** What a write would add to the account: a story, a share link, bytes of text. */
export interface QuotaGrowth {
  story?: boolean;
  share?: boolean;
  bytes?: number;
}

/** The answer to a write refused by a quota. */
export function quotaError(quota: Quota, limits: QuotaLimits): DomainError {
  if (quota === 'storage')
    return new DomainError(
      'limited',
      ERROR_CODES.storageFull,
      QUOTA_MESSAGES.storageFull(limits.maxStoredBytes / BYTES_PER_MB),
    );
  const message =
    quota === 'stories'
      ? QUOTA_MESSAGES.tooManyStories(limits.maxStories)
      : QUOTA_MESSAGES.tooManyShares(limits.maxShares);
  return new DomainError('limited', ERROR_CODES.quotaExceeded, message);
}

/** 429 for an edit or a retry on a message that has every version it may keep. */
export const tooManyVersions = () =>
  new DomainError('limited', ERROR_CODES.quotaExceeded, QUOTA_MESSAGES.tooManyVersions);

/** Runs a write that checks quotas in its transaction; its QuotaExceeded becomes the quota's answer. */
export async function refusedOverQuota<T>(limits: QuotaLimits, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (error instanceof QuotaExceeded) throw quotaError(error.quota, limits);
    throw error;
  }
}

export function createQuotaService({ repos, limits, monthlyTokenLimit, now }: QuotaDeps) {
  return {
    limits,

    /**
     * Refuses, before any work, a write that would take the account past a quota it grows (one
     * primary-key read). Parallel writes may all pass here: each checks again in its transaction.
     */
    async assertRoom(userId: number, growth: QuotaGrowth): Promise<void> {
      const usage = await repos.quotas.usage(userId);
      const after = {
        stories: usage.stories + (growth.story ? 1 : 0),
        shares: usage.shares + (growth.share ? 1 : 0),
        storedBytes: usage.storedBytes + (growth.bytes ?? 0),
      };
      const over = quotaOver(after, {
        maxStories: growth.story ? limits.maxStories : undefined,
        maxShares: growth.share ? limits.maxShares : undefined,
        maxStoredBytes: growth.bytes !== undefined ? limits.maxStoredBytes : undefined,
      });
      if (over) throw quotaError(over, limits);
    },

    /** Each quota's use against its limit, for the account page. */
    async usage(userId: number): Promise<UserLimits> {
      const [usage, monthTokens] = await Promise.all([
        repos.quotas.usage(userId),
        monthlyTokenLimit === null
          ? Promise.resolve(0)
          : repos.usage.totalsForUser(userId, now()).then((totals) => totals.allowanceUsed),
      ]);
      return {
        stories: { used: usage.stories, limit: limits.maxStories },
        shares: { used: usage.shares, limit: limits.maxShares },
        storedBytes: { used: usage.storedBytes, limit: limits.maxStoredBytes },
        monthlyTokens: monthlyTokenLimit === null ? null : { used: monthTokens, limit: monthlyTokenLimit },
      };
    },
  };
}
export type QuotaService = ReturnType<typeof createQuotaService>;
