// The admin users table: one page of users with their stats, searched, sorted and counted on the
// server, its footer's sums, and how many users there are in all. Each sort has an index behind it
// (users' lower(username), lower(email), created_at, coalesce(last_active, created_at); user_stats'
// counters), with the id as tie-breaker in the same direction so the index order is the answer. The
// page and footer queries are also answered unawaited, so a bench can read their SQL (`.toSQL()`)
// and EXPLAIN it.
import { and, asc, desc, eq, gt, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { AdminSortOrder, AdminUserSortField, AdminUserTab } from '@shared/schemas/admin';
import type { Db } from '../../client';
import { users, userStats } from '../../schema';
import { likePattern } from '../sql-values';
import { columns, monthCached, monthImage, monthInput, thisMonth, type AdminUserRow } from './user-columns';

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

export function usersTable(db: Db) {
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
  };
}
