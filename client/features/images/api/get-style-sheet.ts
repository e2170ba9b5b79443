// GET /api/story/{storyId}/style-sheet: the story's visual style sheet (art style, the player's look,
// recurring characters), which every scene prompt starts with.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { styleSheetResponseSchema, type StyleSheetResponse } from '@shared/schemas/images';
import { apiGet } from '@client/lib/api-client';

export const styleSheetQueryKey = (storyId: number) => ['style-sheet', storyId] as const;

export function fetchStyleSheet(storyId: number, signal?: AbortSignal): Promise<StyleSheetResponse> {
  return apiGet(`/api/story/${storyId}/style-sheet`, {
    schema: styleSheetResponseSchema,
    signal,
    startsPaidWork: true,
  });
}

export function styleSheetQueryOptions(storyId: number) {
  return queryOptions({
    queryKey: styleSheetQueryKey(storyId),
    queryFn: ({ signal }) => fetchStyleSheet(storyId, signal),
    // The panel says it could not load; no generic toast on top.
    meta: { errorToast: false },
  });
}

export function useStyleSheet(storyId: number, enabled = true) {
  return useQuery({ ...styleSheetQueryOptions(storyId), enabled });
}
