// Usage over time for the admin: every day of a period by kind of call, with its cost, and the
// period by provider and model (from the ledger's daily rollups); and one user's months.
import type { Repositories } from '@server/db/repositories';
import { utcDay, type TokenSplit } from '@server/db/repositories/usage';
import type { Prices } from '@server/kernel/config/prices';
import { costUsd, roundUsd } from '@server/kernel/cost';
import { DomainError } from '@server/kernel/errors';
import {
  ADMIN_MESSAGES,
  TOKEN_USAGE_KINDS,
  type TokenUsageKind,
  type UsageHistoryResponse,
  type UserUsageResponse,
} from '@shared/schemas/admin';
import { ERROR_CODES } from '@shared/schemas/common';
import type { NarratorPricing } from './narrator-prices';

interface UsageHistoryDeps {
  repos: Pick<Repositories, 'usage' | 'adminUsers'>;
  /** The default narrator's prices: a player's months, which the rollups keep without narrators. */
  prices: Prices;
  /** Each day's and model's cells at their narrator's prices. */
  pricing: NarratorPricing;
  now: () => Date;
}

const DAY_MS = 24 * 60 * 60_000;

/** Daily tokens by kind with their cost for the last `days` UTC days (today included), and the period by model. */
export async function usageHistory(
  { repos, pricing, now }: UsageHistoryDeps,
  days: number,
): Promise<UsageHistoryResponse> {
  const dollars = (sums: TokenSplit & { narrator: string; kind: string }) => costUsd(sums, pricing.pricesOf(sums));
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
  const modelRows = new Map<string, UsageHistoryResponse['byModel'][number]>();
  for (const m of models) {
    const key = JSON.stringify([m.provider, m.model]);
    const row = modelRows.get(key) ?? {
      provider: m.provider,
      model: m.model,
      calls: 0,
      input: 0,
      output: 0,
      image: 0,
      characters: 0,
      cost: 0,
    };
    row.calls += m.calls;
    row.input += m.input;
    row.output += m.output;
    row.image += m.image;
    row.characters += m.characters;
    row.cost = roundUsd(row.cost + dollars(m));
    modelRows.set(key, row);
  }
  const byModel = [...modelRows.values()].sort(
    (a, b) =>
      b.cost - a.cost || b.calls - a.calls || a.provider.localeCompare(b.provider) || a.model.localeCompare(b.model),
  );
  return { days, from, to, daily: [...byDay.values()], byModel };
}

/** One user's months, each priced; 404 for a user that is not there. */
export async function userUsage({ repos, prices }: UsageHistoryDeps, userId: number): Promise<UserUsageResponse> {
  const user = await repos.adminUsers.findName(userId);
  if (!user) throw new DomainError('notFound', ERROR_CODES.notFound, ADMIN_MESSAGES.userNotFound);
  const months = await repos.usage.monthsForUser(userId);
  return {
    user,
    months: months.map(({ cachedInput, ...m }) => ({
      ...m,
      month: m.month.slice(0, 7),
      cost: costUsd({ ...m, cachedInput }, prices),
    })),
  };
}
