// One user's figures as the admin sees them, shared by the users table and the users CSV so both
// say the same: the token use user_stats keeps, priced by kernel/cost.ts, the allowance left this
// month, and the month the figures are of.
import type { AdminUserRow, AdminUserTotalsRow } from '@server/db/repositories/admin-users';
import { monthKey, statsSplit } from '@server/db/repositories/usage';
import type { Prices } from '@server/kernel/config/prices';
import { costUsd, roundUsd } from '@server/kernel/cost';
import type { AdminUser, UserCosts } from '@shared/schemas/admin';
import { remainingAllowance } from '../account/accounts';

export function monthLabel(now: Date): string {
  return monthKey(now).slice(0, 7);
}

/** A users-table row's (or footer's) costs, from the token figures user_stats keeps. */
export function userCosts(row: Omit<AdminUserTotalsRow, 'matching' | 'stories' | 'turns'>, prices: Prices): UserCosts {
  const text = costUsd(
    statsSplit({ text: row.textTokens, image: 0, input: row.inputTokens, cachedInput: row.cachedInputTokens }),
    prices,
  );
  const image = costUsd({ input: 0, output: 0, image: row.imageTokens }, prices);
  const thisMonth = costUsd(
    statsSplit({
      text: row.thisMonth - row.monthImageTokens,
      image: row.monthImageTokens,
      input: row.monthInputTokens,
      cachedInput: row.monthCachedInputTokens,
    }),
    prices,
  );
  return { text, image, total: roundUsd(text + image), thisMonth };
}

export interface UserFigures {
  prices: Prices;
  monthlyTokenLimit: number | null;
}

export function toAdminUser(row: AdminUserRow, { prices, monthlyTokenLimit }: UserFigures): AdminUser {
  const costs = userCosts(row, prices);
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    isAdmin: row.isAdmin,
    createdAt: row.createdAt.toISOString(),
    lastActive: row.lastActive?.toISOString() ?? null,
    stories: row.stories,
    turns: row.turns,
    monthImageTokens: row.monthImageTokens,
    tokenUsage: {
      textTokens: row.textTokens,
      imageTokens: row.imageTokens,
      total: row.textTokens + row.imageTokens,
      thisMonth: row.thisMonth,
      balance: remainingAllowance(monthlyTokenLimit, row.thisMonth + row.monthSpeechTokens),
      monthCostUsd: costs.thisMonth,
    },
    costs,
  };
}
