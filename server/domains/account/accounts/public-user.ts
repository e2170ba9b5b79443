// An account as the API shows it (the User shape: never a password hash), with its token use and
// what is left of its month; and the lookup every account use case starts from, which answers 401
// for an account gone since its session was made.
import type { Repositories } from '@server/db/repositories';
import type { UsageTotals } from '@server/db/repositories/usage';
import type { UserRecord } from '@server/db/repositories/users';
import type { AppConfig } from '@server/kernel/config';
import { costUsd } from '@server/kernel/cost';
import { unauthenticated } from '@server/kernel/errors';
import type { User } from '@shared/schemas/user';

export interface PublicUserDeps {
  repos: Pick<Repositories, 'usage'>;
  config: Pick<AppConfig, 'userMonthlyTokenLimit'> & { llm: Pick<AppConfig['llm'], 'prices'> };
  now: () => Date;
}

/** A new account's usage: it has spent nothing, so nothing need be read. */
export const NOTHING_SPENT: UsageTotals = {
  textTokens: 0,
  imageTokens: 0,
  thisMonth: 0,
  allowanceUsed: 0,
  month: { input: 0, cachedInput: 0, output: 0, image: 0 },
};

/** What is left of the monthly allowance; null when there is no limit. */
export function remainingAllowance(limit: number | null, usedThisMonth: number): number | null {
  return limit === null ? null : Math.max(0, limit - usedThisMonth);
}

export async function toPublicUser(
  { repos, config, now }: PublicUserDeps,
  record: UserRecord,
  known?: UsageTotals,
): Promise<User> {
  const usage = known ?? (await repos.usage.totalsForUser(record.id, now()));
  return {
    id: record.id,
    username: record.username,
    email: record.email,
    isAdmin: record.isAdmin,
    createdAt: record.createdAt.toISOString(),
    lastActive: record.lastActive?.toISOString() ?? null,
    tokenUsage: {
      textTokens: usage.textTokens,
      imageTokens: usage.imageTokens,
      total: usage.textTokens + usage.imageTokens,
      thisMonth: usage.thisMonth,
      balance: remainingAllowance(config.userMonthlyTokenLimit, usage.allowanceUsed),
      // Priced by the same function as the admin's figures and each reply's cost.
      monthCostUsd: costUsd(usage.month, config.llm.prices),
    },
  };
}

export async function requireUser(repos: Pick<Repositories, 'users'>, userId: number): Promise<UserRecord> {
  const record = await repos.users.findById(userId);
  if (!record) throw unauthenticated();
  return record;
}
