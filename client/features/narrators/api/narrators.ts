// GET /api/narrators: the narrators this player may pick, for the story drawer's picker and the
// preferences page. Read once a session: the operator's catalogue changes with a restart.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { narratorsResponseSchema } from '@shared/schemas/narrators';
import { apiGet } from '@client/lib/api-client';

export const narratorsQueryKey = ['narrators'] as const;

export function narratorsQueryOptions() {
  return queryOptions({
    queryKey: narratorsQueryKey,
    queryFn: ({ signal }) => apiGet('/api/narrators', { schema: narratorsResponseSchema, signal }),
    staleTime: Infinity,
    retry: false,
    meta: { errorToast: false },
  });
}

export function useNarrators() {
  return useQuery(narratorsQueryOptions());
}
