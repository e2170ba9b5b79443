// One player's usage: their all-time tokens, this month's and what counts against their allowance
// (the account page, the allowance's check), from their user_stats row in one primary-key lookup,
// and their months for the admin's user page, from user_usage_monthly.
import { desc, eq } from 'drizzle-orm';
import type { Db } from '../../client';
import { userStats, userUsageMonthly } from '../../schema';
import { monthKey, statsSplit, toSums, type TokenSplit, type UsageSums } from './rollups';

export interface UsageTotals {
  textTokens: number;
  imageTokens: number;
  thisMonth: number;
  /** What counts against the monthly allowance: thisMonth's tokens plus speech and transcription as allowance tokens. */
  allowanceUsed: number;
  /** This month's tokens split as they are priced. */
  month: TokenSplit;
}

export interface MonthUsage extends UsageSums {
  /** First day of the UTC month, YYYY-MM-DD. */
  month: string;
}

export function playerUsage(db: Db) {
  /** The user's token figures from their stats row: one primary-key lookup (only the columns read, so later columns cost nothing). */
  const statsOf = async (userId: number) => {
    const [row] = await db
      .select({
        textTokens: userStats.textTokens,
        imageTokens: userStats.imageTokens,
        month: userStats.month,
        monthTokens: userStats.monthTokens,
        monthImageTokens: userStats.monthImageTokens,
        monthInputTokens: userStats.monthInputTokens,
        monthCachedInputTokens: userStats.monthCachedInputTokens,
        speechMonth: userStats.speechMonth,
        monthSpeechTokens: userStats.monthSpeechTokens,
      })
      .from(userStats)
      .where(eq(userStats.userId, userId));
    return row;
  };

  return {
    /** All-time text and image tokens and this month's total, from the user's stats row. */
    async totalsForUser(userId: number, now: Date): Promise<UsageTotals> {
      const row = await statsOf(userId);
      const none = { input: 0, cachedInput: 0, output: 0, image: 0 };
      if (!row) return { textTokens: 0, imageTokens: 0, thisMonth: 0, allowanceUsed: 0, month: none };
      const month = monthKey(now);
      const current = row.month === month;
      const thisMonth = current ? row.monthTokens : 0;
      return {
        textTokens: row.textTokens,
        imageTokens: row.imageTokens,
        thisMonth,
        allowanceUsed: thisMonth + (row.speechMonth === month ? row.monthSpeechTokens : 0),
        month: current
          ? statsSplit({
              text: row.monthTokens - row.monthImageTokens,
              image: row.monthImageTokens,
              input: row.monthInputTokens,
              cachedInput: row.monthCachedInputTokens,
            })
          : none,
      };
    },

    /** One user's usage per UTC month, newest first. */
    async monthsForUser(userId: number): Promise<MonthUsage[]> {
      const rows = await db
        .select({
          month: userUsageMonthly.month,
          calls: userUsageMonthly.calls,
          input: userUsageMonthly.inputTokens,
          cachedInput: userUsageMonthly.cachedInputTokens,
          output: userUsageMonthly.outputTokens,
          image: userUsageMonthly.imageTokens,
          characters: userUsageMonthly.characters,
        })
        .from(userUsageMonthly)
        .where(eq(userUsageMonthly.userId, userId))
        .orderBy(desc(userUsageMonthly.month));
      return rows.map((r) => ({ month: r.month, ...toSums(r) }));
    },
  };
}
