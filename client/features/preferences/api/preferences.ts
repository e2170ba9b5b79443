// GET and POST /api/preferences: the read falls back to the defaults on any failure
// and is cached indefinitely, per account (a visitor and each player have their own entry); a save
// sends only the changed field and puts the server's answer into the cache. The answer also names
// the narrator the player's new stories start with.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  DEFAULT_PREFERENCES,
  preferencesResponseSchema,
  type Preferences,
  type PreferencesUpdateBody,
} from '@shared/schemas/preferences';
import { apiGet, apiWrite } from '@client/lib/api-client';

export const preferencesQueryKey = (userId: number | null) => ['preferences', userId ?? 'visitor'] as const;

/** The preferences as the page holds them: the narrator of new stories is unknown when the read failed. */
export type PlayerPreferences = Preferences & { narrator?: string };

export async function fetchPreferences(signal?: AbortSignal): Promise<PlayerPreferences> {
  try {
    return await apiGet('/api/preferences', { schema: preferencesResponseSchema, signal });
  } catch (error) {
    if (signal?.aborted) throw error;
    return DEFAULT_PREFERENCES;
  }
}

export function preferencesQueryOptions(userId: number | null, enabled = true) {
  return queryOptions({
    queryKey: preferencesQueryKey(userId),
    queryFn: ({ signal }) => fetchPreferences(signal),
    enabled,
    staleTime: Infinity,
    gcTime: Infinity,
  });
}

export function usePreferences(userId: number | null, enabled = true) {
  return useQuery(preferencesQueryOptions(userId, enabled));
}

export function updatePreferences(body: PreferencesUpdateBody): Promise<PlayerPreferences> {
  return apiWrite('/api/preferences', { body, schema: preferencesResponseSchema });
}

/** The page words its own toasts, so the generic error toast is off. */
export function useUpdatePreferencesMutation(userId: number | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updatePreferences,
    meta: { errorToast: false },
    onSuccess: (preferences) => queryClient.setQueryData(preferencesQueryKey(userId), preferences),
  });
}
