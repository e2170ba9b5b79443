// GET /api/admin/users/{id}/usage: one user's calls, tokens and cost month by month (404 'User not
// found' when the account is gone). Fetched only while its dialog is open.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { userUsageResponseSchema, type UserUsageResponse } from '@shared/schemas/admin';
import { apiGet } from '@client/lib/api-client';
import { adminQueryKey } from './admin-query-keys';

export const userUsageQueryKey = (userId: number) => [...adminQueryKey, 'user-usage', userId] as const;

export function fetchUserUsage(userId: number, signal?: AbortSignal): Promise<UserUsageResponse> {
  return apiGet(`/api/admin/users/${encodeURIComponent(String(userId))}/usage`, {
    schema: userUsageResponseSchema,
    signal,
  });
}

export function userUsageQueryOptions(userId: number | null) {
  return queryOptions({
    queryKey: userUsageQueryKey(userId ?? 0),
    queryFn: ({ signal }) => fetchUserUsage(userId ?? 0, signal),
    enabled: userId !== null,
    meta: { errorToast: false },
  });
}

export function useUserUsage(userId: number | null) {
  return useQuery(userUsageQueryOptions(userId));
}
