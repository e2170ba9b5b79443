// GET /api/stories: one page of the player's stories, newest played first, optionally filtered by
// title. Loaded only when logged in; the previous page stays on screen while the next one loads.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { libraryPageSchema, type LibraryPage } from '@shared/schemas/library';
import { apiGet, isUnauthorizedError } from '@client/lib/api-client';

export const storiesQueryKey = ['stories'] as const;

export function fetchStories(params: { page: number; q: string }, signal?: AbortSignal): Promise<LibraryPage> {
  const search = new URLSearchParams({ page: String(params.page) });
  if (params.q) search.set('q', params.q);
  return apiGet(`/api/stories?${search}`, { schema: libraryPageSchema, signal });
}

export function storiesQueryOptions(params: { page: number; q: string }, enabled = true) {
  return queryOptions({
    queryKey: [...storiesQueryKey, params],
    queryFn: ({ signal }) => fetchStories(params, signal),
    enabled,
    staleTime: 0,
    refetchOnMount: 'always',
    placeholderData: keepPreviousData,
    retry: (failureCount, error) => failureCount < 1 && !isUnauthorizedError(error),
  });
}

export function useStories(params: { page: number; q: string }, enabled = true) {
  return useQuery(storiesQueryOptions(params, enabled));
}
