// POST /api/bookmarks, PATCH and DELETE /api/bookmarks/{id}. Each caller shows its own success and
// failure toasts (the spec words them per place), so the generic error toast is off; every
// success refreshes the bookmark list.
import {
  bookmarkSchema,
  type Bookmark,
  type BookmarkCreateBody,
  type BookmarkUpdateBody,
} from '@shared/schemas/bookmarks';
import { successSchema } from '@shared/schemas/common';
import { apiWrite } from '@client/lib/api-client';
import { useRefreshingMutation } from '@client/lib/use-refreshing-mutation';
import { bookmarksQueryKey } from './get-bookmarks';

export function createBookmark(body: BookmarkCreateBody): Promise<Bookmark> {
  return apiWrite('/api/bookmarks', { body, schema: bookmarkSchema });
}

export function updateBookmark({ id, ...body }: BookmarkUpdateBody & { id: number }): Promise<Bookmark> {
  return apiWrite(`/api/bookmarks/${id}`, { method: 'PATCH', body, schema: bookmarkSchema });
}

export function deleteBookmark(id: number): Promise<{ success: true }> {
  return apiWrite(`/api/bookmarks/${id}`, { method: 'DELETE', schema: successSchema });
}

/** What a change to the bookmarks refreshes. */
const BOOKMARK_LISTS = [bookmarksQueryKey];

export const useCreateBookmarkMutation = () => useRefreshingMutation(createBookmark, BOOKMARK_LISTS);
export const useUpdateBookmarkMutation = () => useRefreshingMutation(updateBookmark, BOOKMARK_LISTS);
export const useDeleteBookmarkMutation = () => useRefreshingMutation(deleteBookmark, BOOKMARK_LISTS);
