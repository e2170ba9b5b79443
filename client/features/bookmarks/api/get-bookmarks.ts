// GET /api/bookmarks: the user's bookmarks, newest first. Loaded only when logged in, always
// refetched when a screen opens, one retry; a failure toasts 'Failed to load bookmarks'
// or the server's message through the query cache.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { bookmarkListSchema, type BookmarkList } from '@shared/schemas/bookmarks';
import { apiGet, isUnauthorizedError } from '@client/lib/api-client';

export const bookmarksQueryKey = ['bookmarks'] as const;

export function fetchBookmarks(signal?: AbortSignal): Promise<BookmarkList> {
  return apiGet('/api/bookmarks', { schema: bookmarkListSchema, signal });
}

export function bookmarksQueryOptions(enabled = true) {
  return queryOptions({
    queryKey: bookmarksQueryKey,
    queryFn: ({ signal }) => fetchBookmarks(signal),
    enabled,
    staleTime: 0,
    refetchOnMount: 'always',
    retry: (failureCount, error) => failureCount < 1 && !isUnauthorizedError(error),
  });
}

export function useBookmarks(enabled = true) {
  return useQuery(bookmarksQueryOptions(enabled));
}
