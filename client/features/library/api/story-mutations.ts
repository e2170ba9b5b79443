// PATCH /api/story/{id} (rename) and DELETE /api/story/{id}. Each caller toasts its own outcome, so
// the generic error toast is off; every success refreshes the library and the bookmarks (a deleted
// story takes its bookmarks with it).
import { successSchema } from '@shared/schemas/common';
import { storyRenameResponseSchema, type StoryRenameResponse } from '@shared/schemas/library';
import {
  STORY_FILE_MESSAGES,
  STORY_IMPORT_MAX_BYTES,
  storyImportResponseSchema,
  type StoryImportResponse,
} from '@shared/schemas/story-export';
import { apiWrite } from '@client/lib/api-client';
import { useRefreshingMutation } from '@client/lib/use-refreshing-mutation';
import { bookmarksQueryKey } from '@client/features/bookmarks';
import { storiesQueryKey } from './get-stories';

export function renameStory({ id, title }: { id: number; title: string }): Promise<StoryRenameResponse> {
  return apiWrite(`/api/story/${id}`, { method: 'PATCH', body: { title }, schema: storyRenameResponseSchema });
}

export function deleteStory(id: number): Promise<{ success: true }> {
  return apiWrite(`/api/story/${id}`, { method: 'DELETE', schema: successSchema });
}

/** Reads a chosen file and sends it; a file too large or not JSON is refused here, unsent. */
export async function importStoryFile(file: File): Promise<StoryImportResponse> {
  if (file.size > STORY_IMPORT_MAX_BYTES) throw new Error(STORY_FILE_MESSAGES.tooLarge);
  let body: unknown;
  try {
    body = JSON.parse(await file.text());
  } catch {
    throw new Error(STORY_FILE_MESSAGES.notJson);
  }
  return apiWrite('/api/story/import', { body, schema: storyImportResponseSchema });
}

/** What a change to the library refreshes. */
const LIBRARY_LISTS = [storiesQueryKey, bookmarksQueryKey];

export const useRenameStoryMutation = () => useRefreshingMutation(renameStory, LIBRARY_LISTS);
export const useDeleteStoryMutation = () => useRefreshingMutation(deleteStory, LIBRARY_LISTS);
export const useImportStoryMutation = () => useRefreshingMutation(importStoryFile, LIBRARY_LISTS);
