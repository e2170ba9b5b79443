// GET /api/admin/api-usage: the narrator's and painter's token totals, all-time and this month.
// The card shows its own error ('Failed to load API usage data' or the permission message), so the
// global error toast is switched off.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiUsageResponseSchema, type ApiUsageResponse } from '@shared/schemas/admin';
import { apiGet } from '@client/lib/api-client';
import { adminQueryKey } from './admin-query-keys';

export const apiUsageQueryKey = [...adminQueryKey, 'api-usage'] as const;

export function fetchApiUsage(signal?: AbortSignal): Promise<ApiUsageResponse> {
  return apiGet('/api/admin/api-usage', { schema: apiUsageResponseSchema, signal });
}

export function apiUsageQueryOptions() {
  return queryOptions({
    queryKey: apiUsageQueryKey,
    queryFn: ({ signal }) => fetchApiUsage(signal),
    meta: { errorToast: false },
  });
}

export function useApiUsage() {
  return useQuery(apiUsageQueryOptions());
}
