// The usage ledger: one row per provider call (user, story, provider, model, kind, input and output
// tokens, time), and its read side: token totals per user and overall, all time and for the
// current calendar month (UTC), daily history and a user's months. Every read goes through the
// rollups the database keeps beside the ledger (user_stats, usage_daily, user_usage_monthly, see
// schema.ts), so no read scans the ledger. Speech and transcription rows carry characters and no
// tokens, so the token totals are unchanged by them.
import { and, asc, desc, eq, gte, lte, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../client';
import { usageDaily, usageEvents, userStats, userUsageMonthly } from '../schema';

export interface UsageTotals {
  textTokens: number;
  imageTokens: number;
  thisMonth: number;
  /** What counts against the monthly allowance: thisMonth's tokens plus speech and transcription as allowance tokens. */
  allowanceUsed: number;
  /** This month's tokens split as they are priced. */
  month: TokenSplit;
}

export interface UsageEvent {
  userId: number;
  storyId?: number | null;
  /** The narrator reply the call was for or came after (its fold, its picture), when there is one. */
  messageId?: number | null;
  kind?: 'turn' | 'retry-loop' | 'summary' | 'title' | 'image' | 'style' | 'speech' | 'transcription' | 'embedding';
  provider: string;
  model: string;
  inputTokens?: number;
  /** The part of inputTokens read from the provider's prompt cache; unset when it reported none (stored as 0). */
  cachedInputTokens?: number;
  outputTokens?: number;
  imageTokens?: number;
  /** Speech: the spoken sentence's length; transcription: the transcript's length. */
  characters?: number;
  createdAt?: Date;
}

export interface TokenSplit {
  input: number;
  /** The part of `input` read from a prompt cache. */
  cachedInput: number;
  output: number;
  image: number;
}

/**
 * Tokens as they are priced, from the way user_stats keeps them: text tokens (input and output
 * together), image tokens, and the input and cached-input parts of the text. The output is the rest.
 */
export function statsSplit(stats: { text: number; image: number; input: number; cachedInput: number }): TokenSplit {
  return { input: stats.input, cachedInput: stats.cachedInput, output: stats.text - stats.input, image: stats.image };
}

export function startOfUtcMonth(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
}

/** A UTC date as the rollups key it: YYYY-MM-DD. */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** The rollups' key for the current UTC month: its first day. */
export function monthKey(now: Date): string {
  return utcDay(startOfUtcMonth(now));
}

/** Tokens, characters and calls of one rollup cell. */
export interface UsageSums {
  calls: number;
  input: number;
  cachedInput: number;
  output: number;
  image: number;
  characters: number;
}

export interface DailyKindUsage extends UsageSums {
  day: string;
  kind: string;
}

export interface ModelUsage extends UsageSums {
  provider: string;
  model: string;
}

export interface MonthUsage extends UsageSums {
  /** First day of the UTC month, YYYY-MM-DD. */
  month: string;
}

/** A ledger row as read back: its player is null once they deleted their account. */
export type LedgerRow = Omit<Required<Omit<UsageEvent, 'storyId' | 'messageId' | 'createdAt'>>, 'userId'> & {
  userId: number | null;
};

export function createUsageRepository(db: Db) {
  const list = (where: SQL): Promise<LedgerRow[]> =>
    db
      .select({
        userId: usageEvents.userId,
        kind: usageEvents.kind,
        provider: usageEvents.provider,
        model: usageEvents.model,
        inputTokens: usageEvents.inputTokens,
        cachedInputTokens: usageEvents.cachedInputTokens,
        outputTokens: usageEvents.outputTokens,
        imageTokens: usageEvents.imageTokens,
        characters: usageEvents.characters,
      })
      .from(usageEvents)
      .where(where)
      .orderBy(usageEvents.id);
  const sums = (t: typeof usageDaily | typeof userUsageMonthly) => ({
    calls: sql<string>`coalesce(sum(${t.calls}), 0)`,
    input: sql<string>`coalesce(sum(${t.inputTokens}), 0)`,
    cachedInput: sql<string>`coalesce(sum(${t.cachedInputTokens}), 0)`,
    output: sql<string>`coalesce(sum(${t.outputTokens}), 0)`,
    image: sql<string>`coalesce(sum(${t.imageTokens}), 0)`,
    characters: sql<string>`coalesce(sum(${t.characters}), 0)`,
  });
  const toSums = (r: {
    calls: string | number;
    input: string | number;
    cachedInput: string | number;
    output: string | number;
    image: string | number;
    characters: string | number;
  }): UsageSums => ({
    calls: Number(r.calls),
    input: Number(r.input),
    cachedInput: Number(r.cachedInput),
    output: Number(r.output),
    image: Number(r.image),
    characters: Number(r.characters),
  });
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
  // The admin card's and history's queries unawaited, so a bench can read their SQL (`.toSQL()`) and EXPLAIN it.
  const totalsAllQuery = (now: Date) => {
    const inMonth = sql`filter (where ${usageDaily.day} >= ${monthKey(now)})`;
    return db
      .select({
        input: sql<string>`coalesce(sum(${usageDaily.inputTokens}), 0)`,
        cachedInput: sql<string>`coalesce(sum(${usageDaily.cachedInputTokens}), 0)`,
        output: sql<string>`coalesce(sum(${usageDaily.outputTokens}), 0)`,
        image: sql<string>`coalesce(sum(${usageDaily.imageTokens}), 0)`,
        monthInput: sql<string>`coalesce(sum(${usageDaily.inputTokens}) ${inMonth}, 0)`,
        monthCachedInput: sql<string>`coalesce(sum(${usageDaily.cachedInputTokens}) ${inMonth}, 0)`,
        monthOutput: sql<string>`coalesce(sum(${usageDaily.outputTokens}) ${inMonth}, 0)`,
        monthImage: sql<string>`coalesce(sum(${usageDaily.imageTokens}) ${inMonth}, 0)`,
      })
      .from(usageDaily);
  };
  const dailyByKindQuery = (from: string, to: string) =>
    db
      .select({ day: usageDaily.day, kind: usageDaily.kind, ...sums(usageDaily) })
      .from(usageDaily)
      .where(and(gte(usageDaily.day, from), lte(usageDaily.day, to)))
      .groupBy(usageDaily.day, usageDaily.kind)
      .orderBy(asc(usageDaily.day));
  const byModelQuery = (from: string, to: string) =>
    db
      .select({ provider: usageDaily.provider, model: usageDaily.model, ...sums(usageDaily) })
      .from(usageDaily)
      .where(and(gte(usageDaily.day, from), lte(usageDaily.day, to)))
      .groupBy(usageDaily.provider, usageDaily.model);
  return {
    totalsAllQuery,
    dailyByKindQuery,
    byModelQuery,

    async record(event: UsageEvent): Promise<void> {
      await db.insert(usageEvents).values(event);
    },

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

    /** Input, output and image tokens over the whole ledger, all time and this month (admin usage card). */
    async totalsAll(now: Date): Promise<{ total: TokenSplit; thisMonth: TokenSplit }> {
      const [row] = await totalsAllQuery(now);
      return {
        total: {
          input: Number(row?.input ?? 0),
          cachedInput: Number(row?.cachedInput ?? 0),
          output: Number(row?.output ?? 0),
          image: Number(row?.image ?? 0),
        },
        thisMonth: {
          input: Number(row?.monthInput ?? 0),
          cachedInput: Number(row?.monthCachedInput ?? 0),
          output: Number(row?.monthOutput ?? 0),
          image: Number(row?.monthImage ?? 0),
        },
      };
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
      return rows.map((r) => ({ day: r.day, kind: r.kind, ...toSums(r) }));
    },

    /** Usage per provider and model between two UTC days (inclusive). */
    async byModel(from: string, to: string): Promise<ModelUsage[]> {
      const rows = await byModelQuery(from, to);
      return rows.map((r) => ({ provider: r.provider, model: r.model, ...toSums(r) }));
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

    async listForStory(storyId: number): Promise<LedgerRow[]> {
      return list(eq(usageEvents.storyId, storyId));
    },

    /** A user's rows, oldest first (transcriptions belong to no story). */
    async listForUser(userId: number): Promise<LedgerRow[]> {
      return list(eq(usageEvents.userId, userId));
    },
  };
}
export type UsageRepository = ReturnType<typeof createUsageRepository>;
