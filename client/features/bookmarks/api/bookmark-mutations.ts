// POST /api/bookmarks, PATCH and DELETE /api/bookmarks/{id}. Each caller shows its own success and
// failure toasts (the spec words them per place), so the generic error toast is off; every
// success refreshes the bookmark list.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  bookmarkSchema,
  type Bookmark,
  type BookmarkCreateBody,
  type BookmarkUpdateBody,
} from '@shared/schemas/bookmarks';
import { successSchema } from '@shared/schemas/common';
import { apiWrite } from '@client/lib/api-client';
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

function useInvalidateBookmarks() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: bookmarksQueryKey });
}

export function useCreateBookmarkMutation() {
  const invalidate = useInvalidateBookmarks();
  return useMutation({ mutationFn: createBookmark, meta: { errorToast: false }, onSuccess: invalidate });
}

export function useUpdateBookmarkMutation() {
  const invalidate = useInvalidateBookmarks();
  return useMutation({ mutationFn: updateBookmark, meta: { errorToast: false }, onSuccess: invalidate });
}

export function useDeleteBookmarkMutation() {
  const invalidate = useInvalidateBookmarks();
  return useMutation({ mutationFn: deleteBookmark, meta: { errorToast: false }, onSuccess: invalidate });
}
