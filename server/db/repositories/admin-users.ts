// The admin users table's reads: one page of users with their stats, searched, sorted and counted
// on the server, and every user in id-ordered batches for the CSV. Each sort has an index behind it
// (users' lower(username), lower(email), created_at, coalesce(last_active, created_at); user_stats'
// counters), with the id as tie-breaker in the same direction so the index order is the answer.
import { and, asc, desc, eq, gt, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { AdminSortOrder, AdminUserSortField, AdminUserTab } from '@shared/schemas/admin';
import type { Db } from '../client';
import { users, userStats } from '../schema';
import { likePattern, MAX_ID } from './sql-values';

export interface AdminUserRow {
  id: number;
  username: string;
  email: string | null;
  isAdmin: boolean;
  createdAt: Date;
  lastActive: Date | null;
  stories: number;
  turns: number;
  textTokens: number;
  imageTokens: number;
  thisMonth: number;
  /** The image part of thisMonth. */
  monthImageTokens: number;
  /** The input part of textTokens and its cached part, all time and this month: what prices a row's costs. */
  inputTokens: number;
  cachedInputTokens: number;
  monthInputTokens: number;
  monthCachedInputTokens: number;
  /** This month's speech and transcription as allowance tokens (not part of thisMonth's tokens; part of the allowance's use). */
  monthSpeechTokens: number;
}

export interface AdminUserFilter {
  tab: AdminUserTab;
  /** Part of a username or email (case-insensitive); blank matches everyone. */
  search?: string;
  /** The rollups' key of the current month (YYYY-MM-01). */
  month: string;
}

export interface AdminUserPageQuery extends AdminUserFilter {
  sort?: AdminUserSortField;
  order: AdminSortOrder;
  limit: number;
  offset: number;
}

/** The footer: how many users match, and the sums of their row figures. */
export type AdminUserTotalsRow = { matching: number } & Pick<
  AdminUserRow,
  | 'stories'
  | 'turns'
  | 'textTokens'
  | 'imageTokens'
  | 'thisMonth'
  | 'monthImageTokens'
  | 'inputTokens'
  | 'cachedInputTokens'
  | 'monthInputTokens'
  | 'monthCachedInputTokens'
>;

export function createAdminUsersRepository(db: Db) {
  const thisMonth = (month: string) =>
    sql<number>`case when ${userStats.month} = ${month} then ${userStats.monthTokens} else 0 end`;
  const monthImage = (month: string) =>
    sql<number>`case when ${userStats.month} = ${month} then ${userStats.monthImageTokens} else 0 end`;
  const monthInput = (month: string) =>
    sql<number>`case when ${userStats.month} = ${month} then ${userStats.monthInputTokens} else 0 end`;
  const monthCached = (month: string) =>
    sql<number>`case when ${userStats.month} = ${month} then ${userStats.monthCachedInputTokens} else 0 end`;
  const monthSpeech = (month: string) =>
    sql<number>`case when ${userStats.speechMonth} = ${month} then ${userStats.monthSpeechTokens} else 0 end`;
  const columns = (month: string) => ({
    id: users.id,
    username: users.username,
    email: users.email,
    isAdmin: users.isAdmin,
    createdAt: users.createdAt,
    lastActive: users.lastActive,
    stories: userStats.stories,
    turns: userStats.turns,
    textTokens: userStats.textTokens,
    imageTokens: userStats.imageTokens,
    thisMonth: thisMonth(month).mapWith(Number),
    monthImageTokens: monthImage(month).mapWith(Number),
    inputTokens: userStats.inputTokens,
    cachedInputTokens: userStats.cachedInputTokens,
    monthInputTokens: monthInput(month).mapWith(Number),
    monthCachedInputTokens: monthCached(month).mapWith(Number),
    monthSpeechTokens: monthSpeech(month).mapWith(Number),
  });

  function where({ tab, search, month }: AdminUserFilter): SQL | undefined {
    const pattern = search ? likePattern(search) : null;
    return and(
      tab === 'month' ? and(eq(userStats.month, month), gt(userStats.monthTokens, 0)) : undefined,
      pattern ? or(ilike(users.username, pattern), ilike(users.email, pattern)) : undefined,
    );
  }

  /** The ORDER BY for a sort: the sorted expression, then the id its index carries. */
  function orderBy(query: AdminUserPageQuery): SQL[] {
    const direction = query.order === 'desc' ? desc : asc;
    const byUser = (expression: SQL | AnyPgColumn) => [direction(expression), direction(users.id)];
    const byStats = (column: AnyPgColumn) => [direction(column), direction(userStats.userId)];
    switch (query.sort) {
      case undefined:
        return [asc(users.id)];
      case 'username':
        return byUser(sql`lower(${users.username})`);
      case 'email':
        return byUser(sql`lower(${users.email})`);
      case 'createdAt':
        return byUser(users.createdAt);
      case 'lastActive':
        return byUser(sql`coalesce(${users.lastActive}, ${users.createdAt})`);
      case 'stories':
        return byStats(userStats.stories);
      case 'turns':
        return byStats(userStats.turns);
      case 'textTokens':
        return byStats(userStats.textTokens);
      case 'imageTokens':
        return byStats(userStats.imageTokens);
      case 'total':
        return byStats(userStats.totalTokens);
      case 'thisMonth':
        // In the month tab every row is this month's, so the (month, month_tokens) index orders it.
        return query.tab === 'month'
          ? byStats(userStats.monthTokens)
          : [direction(thisMonth(query.month)), direction(userStats.userId)];
    }
  }

  // The page and footer queries unawaited, so a bench can read their SQL (`.toSQL()`) and EXPLAIN it.
  const pageQuery = (query: AdminUserPageQuery) =>
    db
      .select(columns(query.month))
      .from(users)
      .innerJoin(userStats, eq(userStats.userId, users.id))
      .where(where(query))
      .orderBy(...orderBy(query))
      .limit(query.limit)
      .offset(query.offset);
  const totalsQuery = (filter: AdminUserFilter) => {
    const sums = db.select({
      matching: sql<string>`count(*)`,
      stories: sql<string>`coalesce(sum(${userStats.stories}), 0)`,
      turns: sql<string>`coalesce(sum(${userStats.turns}), 0)`,
      textTokens: sql<string>`coalesce(sum(${userStats.textTokens}), 0)`,
      imageTokens: sql<string>`coalesce(sum(${userStats.imageTokens}), 0)`,
      thisMonth: sql<string>`coalesce(sum(${thisMonth(filter.month)}), 0)`,
      monthImageTokens: sql<string>`coalesce(sum(${monthImage(filter.month)}), 0)`,
      inputTokens: sql<string>`coalesce(sum(${userStats.inputTokens}), 0)`,
      cachedInputTokens: sql<string>`coalesce(sum(${userStats.cachedInputTokens}), 0)`,
      monthInputTokens: sql<string>`coalesce(sum(${monthInput(filter.month)}), 0)`,
      monthCachedInputTokens: sql<string>`coalesce(sum(${monthCached(filter.month)}), 0)`,
    });
    // Without a search nothing of users is read: every user has exactly one stats row (a trigger makes
    // it, the foreign key ends it), so the sums skip the join, which cost 90 of the page's 115 ms at
    // 100,000 users on PostgreSQL (bench:admin).
    return filter.search
      ? sums.from(users).innerJoin(userStats, eq(userStats.userId, users.id)).where(where(filter))
      : sums.from(userStats).where(where(filter));
  };

  return {
    pageQuery,
    totalsQuery,

    async page(query: AdminUserPageQuery): Promise<AdminUserRow[]> {
      return pageQuery(query);
    },

    /** How many users match, and their sums (the table's footer). */
    async totals(filter: AdminUserFilter): Promise<AdminUserTotalsRow> {
      const [row] = await totalsQuery(filter);
      return {
        matching: Number(row?.matching ?? 0),
        stories: Number(row?.stories ?? 0),
        turns: Number(row?.turns ?? 0),
        textTokens: Number(row?.textTokens ?? 0),
        imageTokens: Number(row?.imageTokens ?? 0),
        thisMonth: Number(row?.thisMonth ?? 0),
        monthImageTokens: Number(row?.monthImageTokens ?? 0),
        inputTokens: Number(row?.inputTokens ?? 0),
        cachedInputTokens: Number(row?.cachedInputTokens ?? 0),
        monthInputTokens: Number(row?.monthInputTokens ?? 0),
        monthCachedInputTokens: Number(row?.monthCachedInputTokens ?? 0),
      };
    },

    async countAll(): Promise<number> {
      const [row] = await db.select({ n: sql<string>`count(*)` }).from(users);
      return Number(row?.n ?? 0);
    },

    /** Users with ids above `afterId`, in id order: the CSV walks the table in these batches (keyset, not OFFSET). */
    async batchAfter(afterId: number, limit: number, month: string): Promise<AdminUserRow[]> {
      return db
        .select(columns(month))
        .from(users)
        .innerJoin(userStats, eq(userStats.userId, users.id))
        .where(gt(users.id, afterId))
        .orderBy(asc(users.id))
        .limit(limit);
    },

    async findName(userId: number): Promise<{ id: number; username: string } | null> {
      if (userId > MAX_ID) return null;
      const [row] = await db.select({ id: users.id, username: users.username }).from(users).where(eq(users.id, userId));
      return row ?? null;
    },
  };
}
export type AdminUsersRepository = ReturnType<typeof createAdminUsersRepository>;
