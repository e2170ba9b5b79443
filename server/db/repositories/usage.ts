// The usage ledger: one row per provider call (user, story, provider, model, kind, input and output
// tokens, time), and its read side: token totals per user and overall, all time and for the
// current calendar month (UTC). Speech and transcription rows carry characters and no tokens, so
// the token totals below are unchanged by them.
import { and, eq, gte, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../client';
import { usageEvents } from '../schema';

export interface UsageTotals {
  textTokens: number;
  imageTokens: number;
  thisMonth: number;
}

export interface UsageEvent {
  userId: number;
  storyId?: number | null;
  kind?: 'turn' | 'summary' | 'title' | 'image' | 'style' | 'speech' | 'transcription';
  provider: string;
  model: string;
  inputTokens?: number;
  outputTokens?: number;
  imageTokens?: number;
  /** Speech: the spoken sentence's length; transcription: the transcript's length. */
  characters?: number;
  createdAt?: Date;
}

export interface TokenSplit {
  input: number;
  output: number;
  image: number;
}

export function startOfUtcMonth(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
}

export type LedgerRow = Required<Omit<UsageEvent, 'storyId' | 'createdAt'>>;

export function createUsageRepository(db: Db) {
  const list = (where: SQL): Promise<LedgerRow[]> =>
    db
      .select({
        userId: usageEvents.userId,
        kind: usageEvents.kind,
        provider: usageEvents.provider,
        model: usageEvents.model,
        inputTokens: usageEvents.inputTokens,
        outputTokens: usageEvents.outputTokens,
        imageTokens: usageEvents.imageTokens,
        characters: usageEvents.characters,
      })
      .from(usageEvents)
      .where(where)
      .orderBy(usageEvents.id);
  const text = sql<string>`coalesce(sum(${usageEvents.inputTokens} + ${usageEvents.outputTokens}), 0)`;
  const image = sql<string>`coalesce(sum(${usageEvents.imageTokens}), 0)`;
  return {
    async record(event: UsageEvent): Promise<void> {
      await db.insert(usageEvents).values(event);
    },

    /** One scan of the user's ledger rows: all-time text and image tokens, and this month's total. */
    async totalsForUser(userId: number, now: Date): Promise<UsageTotals> {
      const monthStart = startOfUtcMonth(now);
      const [row] = await db
        .select({
          text,
          image,
          month: sql<string>`coalesce(sum(${usageEvents.inputTokens} + ${usageEvents.outputTokens} + ${usageEvents.imageTokens}) filter (where ${usageEvents.createdAt} >= ${monthStart}), 0)`,
        })
        .from(usageEvents)
        .where(eq(usageEvents.userId, userId));
      return { textTokens: Number(row?.text ?? 0), imageTokens: Number(row?.image ?? 0), thisMonth: Number(row?.month ?? 0) };
    },

    /** Tokens the user spent since the start of this month (the allowance check; an index range scan). */
    async monthTotalForUser(userId: number, now: Date): Promise<number> {
      const [row] = await db
        .select({ total: sql<string>`coalesce(sum(${usageEvents.inputTokens} + ${usageEvents.outputTokens} + ${usageEvents.imageTokens}), 0)` })
        .from(usageEvents)
        .where(and(eq(usageEvents.userId, userId), gte(usageEvents.createdAt, startOfUtcMonth(now))));
      return Number(row?.total ?? 0);
    },

    /** Every user's totals in one grouped scan (admin users table); users without rows are absent. */
    async totalsByUser(now: Date): Promise<Map<number, UsageTotals>> {
      const monthStart = startOfUtcMonth(now);
      const rows = await db
        .select({
          userId: usageEvents.userId,
          text,
          image,
          month: sql<string>`coalesce(sum(${usageEvents.inputTokens} + ${usageEvents.outputTokens} + ${usageEvents.imageTokens}) filter (where ${usageEvents.createdAt} >= ${monthStart}), 0)`,
        })
        .from(usageEvents)
        .groupBy(usageEvents.userId);
      return new Map(rows.map((r) => [r.userId, { textTokens: Number(r.text), imageTokens: Number(r.image), thisMonth: Number(r.month) }]));
    },

    /** Input, output and image tokens over the whole ledger, all time and this month (admin usage card). */
    async totalsAll(now: Date): Promise<{ total: TokenSplit; thisMonth: TokenSplit }> {
      const monthStart = startOfUtcMonth(now);
      const inMonth = sql`filter (where ${usageEvents.createdAt} >= ${monthStart})`;
      const [row] = await db
        .select({
          input: sql<string>`coalesce(sum(${usageEvents.inputTokens}), 0)`,
          output: sql<string>`coalesce(sum(${usageEvents.outputTokens}), 0)`,
          image,
          monthInput: sql<string>`coalesce(sum(${usageEvents.inputTokens}) ${inMonth}, 0)`,
          monthOutput: sql<string>`coalesce(sum(${usageEvents.outputTokens}) ${inMonth}, 0)`,
          monthImage: sql<string>`coalesce(sum(${usageEvents.imageTokens}) ${inMonth}, 0)`,
        })
        .from(usageEvents);
      return {
        total: { input: Number(row?.input ?? 0), output: Number(row?.output ?? 0), image: Number(row?.image ?? 0) },
        thisMonth: { input: Number(row?.monthInput ?? 0), output: Number(row?.monthOutput ?? 0), image: Number(row?.monthImage ?? 0) },
      };
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
