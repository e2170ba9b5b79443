// GET /api/user: the current session's user. 401 means logged out and clears the
// saved user id; other failures leave the user as none. Also the cache helpers login and logout use.
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { USER_QUERY_STALE_MS } from '@shared/constants';
import type { User } from '@shared/schemas/user';
import { apiGet, isUnauthorizedError } from '@client/lib/api-client';
import { clearSavedUserId, saveUserId } from '../utils/session-persistence';
import { sessionUserSchema } from '../utils/session-user';

export const userQueryKey = ['user'] as const;

export async function fetchUser(signal?: AbortSignal): Promise<User | null> {
  try {
    const user = await apiGet('/api/user', { schema: sessionUserSchema, signal });
    saveUserId(user.id);
    return user;
  } catch (error) {
    if (isUnauthorizedError(error)) {
      clearSavedUserId();
      return null;
    }
    throw error;
  }
}

export function userQueryOptions() {
  return queryOptions({
    queryKey: userQueryKey,
    queryFn: ({ signal }) => fetchUser(signal),
    staleTime: USER_QUERY_STALE_MS,
    // One retry for a server hiccup; a 401 is an answer, not a failure (it is caught above anyway).
    retry: (failureCount, error) => failureCount < 1 && !isUnauthorizedError(error),
    // A failed session read just means "no user"; it must not greet every visitor with an error toast.
    meta: { errorToast: false },
  });
}

export function useUser() {
  return useQuery(userQueryOptions());
}

/** Drops cached data that belonged to whoever used this tab before, keeping queries on screen. */
function forgetPreviousUserData(queryClient: QueryClient): void {
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== userQueryKey[0], type: 'inactive' });
}

export function setSessionUser(queryClient: QueryClient, user: User): void {
  forgetPreviousUserData(queryClient);
  saveUserId(user.id);
  queryClient.setQueryData(userQueryKey, user);
}

export function clearSessionUser(queryClient: QueryClient): void {
  clearSavedUserId();
  queryClient.setQueryData(userQueryKey, null);
  forgetPreviousUserData(queryClient);
}
