// GET /api/admin/usage/history?days=30|90: daily tokens by kind with their estimated cost, and the
// period's calls by provider and model. Switching period keeps the other period's chart on screen
// until the new one arrives.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { usageHistoryResponseSchema, type UsageHistoryResponse, type USAGE_PERIODS } from '@shared/schemas/admin';
import { apiGet } from '@client/lib/api-client';
import { adminQueryKey } from './admin-query-keys';

export type UsagePeriod = (typeof USAGE_PERIODS)[number];

export const usageHistoryQueryKey = (days: UsagePeriod) => [...adminQueryKey, 'usage-history', days] as const;

export function fetchUsageHistory(days: UsagePeriod, signal?: AbortSignal): Promise<UsageHistoryResponse> {
  return apiGet(`/api/admin/usage/history?days=${days}`, { schema: usageHistoryResponseSchema, signal });
}

export function usageHistoryQueryOptions(days: UsagePeriod) {
  return queryOptions({
    queryKey: usageHistoryQueryKey(days),
    queryFn: ({ signal }) => fetchUsageHistory(days, signal),
    placeholderData: keepPreviousData,
    meta: { errorToast: false },
  });
}

export function useUsageHistory(days: UsagePeriod) {
  return useQuery(usageHistoryQueryOptions(days));
}
