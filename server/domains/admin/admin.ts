// The admin dashboard's data: provider usage totals and history from the ledger's rollups, the
// users table (searched, sorted and paged in the database), one user's months, and every user as
// a CSV that streams in id-ordered batches so memory stays flat at any number of users.
import { describeImageProvider } from '@server/ai/image/registry';
import type { ImageConfig } from '@server/ai/image/types';
import { describeProvider } from '@server/ai/llm/registry';
import type { LlmConfig } from '@server/kernel/config';
import type { Repositories } from '@server/db/repositories';
import type { AdminUserRow, AdminUserTotalsRow } from '@server/db/repositories/admin-users';
import { monthKey, statsSplit, utcDay, type TokenSplit } from '@server/db/repositories/usage';
import type { Prices } from '@server/kernel/config/prices';
import { costUsd, roundUsd } from '@server/kernel/cost';
import { AppError, unauthenticated } from '@server/kernel/errors';
import {
  ADMIN_MESSAGES,
  TOKEN_USAGE_KINDS,
  adminUsersQuerySchema,
  type AdminUser,
  type AdminUsersResponse,
  type CostTotals,
  type UserCosts,
  type ApiUsageResponse,
  type TokenUsageKind,
  type UsageHistoryResponse,
  type UserUsageResponse,
} from '@shared/schemas/admin';
import { ERROR_CODES } from '@shared/schemas/common';
import type { z } from 'zod';
import { remainingAllowance } from '../account/accounts';

interface AdminDeps {
  repos: Repositories;
  llm: LlmConfig;
  image: ImageConfig;
  monthlyTokenLimit: number | null;
  now: () => Date;
}

type UsersQuery = z.output<typeof adminUsersQuerySchema>;

const CSV_COLUMNS = [
  'id',
  'username',
  'email',
  'isAdmin',
  'createdAt',
  'lastActive',
  'stories',
  'turns',
  'textTokens',
  'imageTokens',
  'total',
  'thisMonth',
  'balance',
] as const;
/** Rows per database round trip while the CSV streams: big enough to be quick, small enough to stay flat. */
const CSV_BATCH = 2000;
const DAY_MS = 24 * 60 * 60_000;

/** Quotes a CSV field, and defuses text a spreadsheet would run as a formula (=, +, -, @, tab, CR). */
export function csvField(value: string | number | boolean | null): string {
  if (value === null) return '';
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text) && typeof value === 'string') text = `'${text}`;
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function monthLabel(now: Date): string {
  return monthKey(now).slice(0, 7);
}

/** The usage card's figures as dollars, each part priced alone and all of it together. */
function costTotals(t: TokenSplit, prices: Prices): CostTotals {
  return {
    input: costUsd({ input: t.input, cachedInput: t.cachedInput, output: 0 }, prices),
    output: costUsd({ input: 0, output: t.output }, prices),
    image: costUsd({ input: 0, output: 0, image: t.image }, prices),
    total: costUsd(t, prices),
  };
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

const tokensOf = ({ input, output, image }: TokenSplit) => ({ input, output, image });

export function createAdminService({ repos, llm, image, monthlyTokenLimit, now }: AdminDeps) {
  const prices = llm.prices;
  const dollars = (sums: TokenSplit) => costUsd(sums, prices);
  const toAdminUser = (row: AdminUserRow): AdminUser => {
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
  };

  return {
    async requireAdmin(userId: number): Promise<void> {
      const user = await repos.users.findById(userId);
      if (!user) throw unauthenticated();
      if (!user.isAdmin) throw new AppError(403, ERROR_CODES.forbidden, ADMIN_MESSAGES.adminRequired);
    },

    async apiUsage(): Promise<ApiUsageResponse> {
      const totals = await repos.usage.totalsAll(now());
      const imageProvider = { ...describeImageProvider(image), providerId: image.provider, model: image.model };
      return {
        ...describeProvider(llm),
        providerId: llm.provider,
        model: llm.model,
        total: tokensOf(totals.total),
        thisMonth: tokensOf(totals.thisMonth),
        costs: { total: costTotals(totals.total, prices), thisMonth: costTotals(totals.thisMonth, prices) },
        prices,
        imageProvider,
      };
    },

    /** One page of the users table; with no parameters, the first page of everyone in id order. */
    async users(query: UsersQuery): Promise<AdminUsersResponse> {
      const at = now();
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
        users: rows.map(toAdminUser),
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
            costs: userCosts(sums, prices),
          },
        },
      };
    },

    /** Daily tokens by kind with their cost for the last `days` UTC days (today included), and the period by model. */
    async usageHistory(days: number): Promise<UsageHistoryResponse> {
      const today = now();
      const to = utcDay(today);
      const from = utcDay(new Date(today.getTime() - (days - 1) * DAY_MS));
      const [cells, models] = await Promise.all([repos.usage.dailyByKind(from, to), repos.usage.byModel(from, to)]);
      const byDay = new Map<string, UsageHistoryResponse['daily'][number]>();
      for (let i = days - 1; i >= 0; i--) {
        const day = utcDay(new Date(today.getTime() - i * DAY_MS));
        byDay.set(day, {
          day,
          turn: 0,
          'retry-loop': 0,
          summary: 0,
          title: 0,
          image: 0,
          style: 0,
          embedding: 0,
          cost: 0,
        });
      }
      for (const cell of cells) {
        const entry = byDay.get(cell.day);
        if (!entry || !(TOKEN_USAGE_KINDS as readonly string[]).includes(cell.kind)) continue;
        entry[cell.kind as TokenUsageKind] += cell.input + cell.output + cell.image;
        entry.cost = roundUsd(entry.cost + dollars(cell));
      }
      const byModel = models
        .map((m) => ({
          provider: m.provider,
          model: m.model,
          calls: m.calls,
          input: m.input,
          output: m.output,
          image: m.image,
          characters: m.characters,
          cost: dollars(m),
        }))
        .sort(
          (a, b) =>
            b.cost - a.cost ||
            b.calls - a.calls ||
            a.provider.localeCompare(b.provider) ||
            a.model.localeCompare(b.model),
        );
      return { days, from, to, daily: [...byDay.values()], byModel };
    },

    async userUsage(userId: number): Promise<UserUsageResponse> {
      const user = await repos.adminUsers.findName(userId);
      if (!user) throw new AppError(404, ERROR_CODES.notFound, ADMIN_MESSAGES.userNotFound);
      const months = await repos.usage.monthsForUser(userId);
      return {
        user,
        months: months.map(({ cachedInput, ...m }) => ({
          ...m,
          month: m.month.slice(0, 7),
          cost: dollars({ ...m, cachedInput }),
        })),
      };
    },

    csvFilename(): string {
      return `taleweaver-users-${monthLabel(now())}.csv`;
    },

    /** The users CSV, header first, then one chunk per batch of users; never a hash or a session. */
    async *usersCsv(): AsyncGenerator<string> {
      const month = monthKey(now());
      yield CSV_COLUMNS.join(',') + '\r\n';
      let afterId = 0;
      for (;;) {
        const batch = await repos.adminUsers.batchAfter(afterId, CSV_BATCH, month);
        if (batch.length === 0) return;
        let chunk = '';
        for (const row of batch) {
          const u = toAdminUser(row);
          const t = u.tokenUsage;
          chunk +=
            [
              u.id,
              u.username,
              u.email,
              u.isAdmin,
              u.createdAt,
              u.lastActive,
              u.stories,
              u.turns,
              t.textTokens,
              t.imageTokens,
              t.total,
              t.thisMonth,
              t.balance,
            ]
              .map(csvField)
              .join(',') + '\r\n';
        }
        yield chunk;
        afterId = batch[batch.length - 1]!.id;
      }
    },
  };
}
export type AdminService = ReturnType<typeof createAdminService>;
