// The admin's users table: one page searched, sorted and paged in the database (never every user
// read into memory), with the footer's totals over the users the filter matches.
import type { Repositories } from '@server/db/repositories';
import { monthKey } from '@server/db/repositories/usage';
import type { AdminUsersResponse, adminUsersQuerySchema } from '@shared/schemas/admin';
import type { z } from 'zod';
import { monthLabel, toAdminUser, userCosts, type UserFigures } from './user-figures';

export type UsersQuery = z.output<typeof adminUsersQuerySchema>;

interface UsersTableDeps extends UserFigures {
  repos: Pick<Repositories, 'adminUsers' | 'usage'>;
  now: () => Date;
}

/** One page of the users table; with no parameters, the first page of everyone in id order. */
export async function usersPage(deps: UsersTableDeps, query: UsersQuery): Promise<AdminUsersResponse> {
  const { repos } = deps;
  const at = deps.now();
  const month = monthKey(at);
  const filter = { tab: query.tab, search: query.q || undefined, month };
  // Unfiltered, the footer's count is everyone: no second count of the users table.
  const everyone = filter.tab === 'all' && !filter.search;
  const [rows, totals, counted, monthTokens] = await Promise.all([
    repos.adminUsers.page({
      ...filter,
      sort: query.sort,
      order: query.order,
      limit: query.pageSize,
      offset: (query.page - 1) * query.pageSize,
    }),
    repos.adminUsers.totals(filter),
    everyone ? null : repos.adminUsers.countAll(),
    repos.usage.monthTokensAll(at),
  ]);
  const { matching, ...sums } = totals;
  const totalUsers = counted ?? matching;
  return {
    users: rows.map((row) => toAdminUser(row, deps)),
    metadata: {
      totalUsers,
      currentMonth: monthLabel(at),
      monthTokens,
      matchingUsers: matching,
      page: query.page,
      pageSize: query.pageSize,
      totals: {
        stories: sums.stories,
        turns: sums.turns,
        textTokens: sums.textTokens,
        imageTokens: sums.imageTokens,
        total: sums.textTokens + sums.imageTokens,
        thisMonth: sums.thisMonth,
        monthImageTokens: sums.monthImageTokens,
        costs: userCosts(sums, deps.prices),
      },
    },
  };
}
