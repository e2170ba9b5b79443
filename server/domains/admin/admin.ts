// The admin dashboard's data: provider usage totals (also per narrator, and as a CSV) and history
// from the ledger's rollups, the users table (searched, sorted and paged in the database), one user's
// months, and every user as a CSV that streams in id-ordered batches so memory stays flat at any
// number of users. Each is its own module (api-usage.ts, narrators-csv.ts, users-table.ts,
// usage-history.ts, users-csv.ts); this door gives them the prices (narrator-prices.ts) and the
// allowance they figure with, and holds the admin check every route starts with.
import type { ImageConfig } from '@server/ai/image/types';
import type { LlmConfig, NarratorCatalogue } from '@server/kernel/config';
import type { Repositories } from '@server/db/repositories';
import { DomainError, unauthenticated } from '@server/kernel/errors';
import {
  ADMIN_MESSAGES,
  type AdminUsersResponse,
  type ApiUsageResponse,
  type UsageHistoryResponse,
  type UserUsageResponse,
} from '@shared/schemas/admin';
import { ERROR_CODES } from '@shared/schemas/common';
import { apiUsage } from './api-usage';
import { narratorPricing } from './narrator-prices';
import { narratorsCsv, narratorsCsvFilename } from './narrators-csv';
import { usageHistory, userUsage } from './usage-history';
import { usersCsv, usersCsvFilename } from './users-csv';
import { usersPage, type UsersQuery } from './users-table';

export { csvField } from './users-csv';
export { monthLabel, userCosts } from './user-figures';

interface AdminDeps {
  repos: Repositories;
  /** The default narrator's settings (the card's provider and the prices of calls no narrator makes). */
  llm: LlmConfig;
  catalogue: NarratorCatalogue;
  image: ImageConfig;
  monthlyTokenLimit: number | null;
  now: () => Date;
}

export function createAdminService(deps: AdminDeps) {
  const { repos, now } = deps;
  const pricing = narratorPricing(deps.catalogue);
  const figures = { repos, now, prices: deps.llm.prices, pricing, monthlyTokenLimit: deps.monthlyTokenLimit };

  return {
    async requireAdmin(userId: number): Promise<void> {
      const user = await repos.users.findById(userId);
      if (!user) throw unauthenticated();
      if (!user.isAdmin) throw new DomainError('forbidden', ERROR_CODES.forbidden, ADMIN_MESSAGES.adminRequired);
    },

    apiUsage: (): Promise<ApiUsageResponse> => apiUsage({ ...deps, pricing }),

    /** One page of the users table; with no parameters, the first page of everyone in id order. */
    users: (query: UsersQuery): Promise<AdminUsersResponse> => usersPage(figures, query),

    /** Daily tokens by kind with their cost for the last `days` UTC days (today included), and the period by model. */
    usageHistory: (days: number): Promise<UsageHistoryResponse> => usageHistory(figures, days),

    userUsage: (userId: number): Promise<UserUsageResponse> => userUsage(figures, userId),

    csvFilename: (): string => usersCsvFilename(now()),

    narratorsCsvFilename: (): string => narratorsCsvFilename(now()),

    /** The usage card's by-narrator rows as a CSV. */
    narratorsCsv: async (): Promise<string> => narratorsCsv((await apiUsage({ ...deps, pricing })).byNarrator),

    /** The users CSV, header first, then one chunk per batch of users; never a hash or a session. */
    usersCsv: (): AsyncGenerator<string> => usersCsv(figures),
  };
}
export type AdminService = ReturnType<typeof createAdminService>;
