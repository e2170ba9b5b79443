// The operator's usage, over every player: the admin usage card's totals (all time and this month)
// per narrator, this month's tokens together (the base of a player's share), and the history per day
// and kind and per model, all from usage_daily, each cell kept apart by narrator so it is priced with
// its narrator's prices. The card's and history's queries are also answered unawaited, so
// a bench can read their SQL (`.toSQL()`) and EXPLAIN it.
import { and, asc, gte, lte, sql } from 'drizzle-orm';
import type { Db } from '../../client';
import { usageDaily } from '../../schema';
import { monthKey, sums, toSums, type TokenSplit, type UsageSums } from './rollups';

export interface DailyKindUsage extends UsageSums {
  day: string;
  kind: string;
  narrator: string;
}

export interface ModelUsage extends UsageSums {
  provider: string;
  model: string;
  narrator: string;
  kind: string;
}

/** One narrator's tokens of one kind of call, all time and this month (the usage card's cells). */
export interface NarratorKindTotals {
  narrator: string;
  kind: string;
  total: TokenSplit;
  thisMonth: TokenSplit;
}

export function operatorUsage(db: Db) {
  const totalsAllQuery = (now: Date) => {
    const inMonth = sql`filter (where ${usageDaily.day} >= ${monthKey(now)})`;
    return db
      .select({
        narrator: usageDaily.narrator,
        kind: usageDaily.kind,
        input: sql<string>`coalesce(sum(${usageDaily.inputTokens}), 0)`,
        cachedInput: sql<string>`coalesce(sum(${usageDaily.cachedInputTokens}), 0)`,
        output: sql<string>`coalesce(sum(${usageDaily.outputTokens}), 0)`,
        image: sql<string>`coalesce(sum(${usageDaily.imageTokens}), 0)`,
        monthInput: sql<string>`coalesce(sum(${usageDaily.inputTokens}) ${inMonth}, 0)`,
        monthCachedInput: sql<string>`coalesce(sum(${usageDaily.cachedInputTokens}) ${inMonth}, 0)`,
        monthOutput: sql<string>`coalesce(sum(${usageDaily.outputTokens}) ${inMonth}, 0)`,
        monthImage: sql<string>`coalesce(sum(${usageDaily.imageTokens}) ${inMonth}, 0)`,
      })
      .from(usageDaily)
      .groupBy(usageDaily.narrator, usageDaily.kind);
  };
  const dailyByKindQuery = (from: string, to: string) =>
    db
      .select({ day: usageDaily.day, kind: usageDaily.kind, narrator: usageDaily.narrator, ...sums(usageDaily) })
      .from(usageDaily)
      .where(and(gte(usageDaily.day, from), lte(usageDaily.day, to)))
      .groupBy(usageDaily.day, usageDaily.kind, usageDaily.narrator)
      .orderBy(asc(usageDaily.day));
  const byModelQuery = (from: string, to: string) =>
    db
      .select({
        provider: usageDaily.provider,
        model: usageDaily.model,
        narrator: usageDaily.narrator,
        kind: usageDaily.kind,
        ...sums(usageDaily),
      })
      .from(usageDaily)
      .where(and(gte(usageDaily.day, from), lte(usageDaily.day, to)))
      .groupBy(usageDaily.provider, usageDaily.model, usageDaily.narrator, usageDaily.kind);

  return {
    totalsAllQuery,
    dailyByKindQuery,
    byModelQuery,

    /** Tokens over the whole ledger per narrator and kind of call, all time and this month (admin usage card). */
    async totalsAll(now: Date): Promise<NarratorKindTotals[]> {
      const rows = await totalsAllQuery(now);
      return rows.map((row) => ({
        narrator: row.narrator,
        kind: row.kind,
        total: {
          input: Number(row.input),
          cachedInput: Number(row.cachedInput),
          output: Number(row.output),
          image: Number(row.image),
        },
        thisMonth: {
          input: Number(row.monthInput),
          cachedInput: Number(row.monthCachedInput),
          output: Number(row.monthOutput),
          image: Number(row.monthImage),
        },
      }));
    },

    /** Every user's tokens this month together (the base of a user's month share). */
    async monthTokensAll(now: Date): Promise<number> {
      const [row] = await db
        .select({
          total: sql<string>`coalesce(sum(${usageDaily.inputTokens} + ${usageDaily.outputTokens} + ${usageDaily.imageTokens}), 0)`,
        })
        .from(usageDaily)
        .where(gte(usageDaily.day, monthKey(now)));
      return Number(row?.total ?? 0);
    },

    /** Usage per day and kind between two UTC days (inclusive); days without calls are absent. */
    async dailyByKind(from: string, to: string): Promise<DailyKindUsage[]> {
      const rows = await dailyByKindQuery(from, to);
      return rows.map((r) => ({ day: r.day, kind: r.kind, narrator: r.narrator, ...toSums(r) }));
    },

    /** Usage per provider, model, narrator and kind between two UTC days (inclusive). */
    async byModel(from: string, to: string): Promise<ModelUsage[]> {
      const rows = await byModelQuery(from, to);
      return rows.map((r) => ({
        provider: r.provider,
        model: r.model,
        narrator: r.narrator,
        kind: r.kind,
        ...toSums(r),
      }));
    },
  };
}
