// GET /api/check-username?username= -> {available}. Feeds the register form's availability hint.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { checkUsernameResponseSchema, type CheckUsernameResponse } from '@shared/schemas/auth';
import { apiGet } from '@client/lib/api-client';

export function fetchUsernameAvailability(username: string, signal?: AbortSignal): Promise<CheckUsernameResponse> {
  const query = new URLSearchParams({ username });
  return apiGet(`/api/check-username?${query.toString()}`, { schema: checkUsernameResponseSchema, signal });
}

export function checkUsernameQueryOptions(username: string) {
  return queryOptions({
    queryKey: ['check-username', username] as const,
    queryFn: ({ signal }) => fetchUsernameAvailability(username, signal),
    // The hint falls back to "unknown"; the server still rejects a taken name on submit.
    meta: { errorToast: false },
  });
}

export function useCheckUsername(username: string, enabled: boolean) {
  return useQuery({ ...checkUsernameQueryOptions(username), enabled });
}
