// GET /api/user/limits: each account quota's use against its limit (stories, shared links, stored
// text, and this month's tokens when there is a monthly allowance), for Account Settings. Read
// afresh whenever the page shows it: stories and shares change elsewhere. Keyed apart from the
// session user's ['user'], so a sign-in as someone else drops it (client/features/auth/api/get-user.ts).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { userLimitsResponseSchema, type UserLimits } from '@shared/schemas/quotas';
import { apiGet, isUnauthorizedError } from '@client/lib/api-client';

export const userLimitsQueryKey = ['user-limits'] as const;

export function fetchUserLimits(signal?: AbortSignal): Promise<UserLimits> {
  return apiGet('/api/user/limits', { schema: userLimitsResponseSchema, signal });
}

export function userLimitsQueryOptions() {
  return queryOptions({
    queryKey: userLimitsQueryKey,
    queryFn: ({ signal }) => fetchUserLimits(signal),
    staleTime: 0,
    refetchOnMount: 'always',
    retry: (failureCount, error) => failureCount < 1 && !isUnauthorizedError(error),
    // The section says so itself when it cannot load.
    meta: { errorToast: false },
  });
}

export function useUserLimits() {
  return useQuery(userLimitsQueryOptions());
}
