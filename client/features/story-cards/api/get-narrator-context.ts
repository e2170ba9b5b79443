// GET /api/story/{id}/messages/{messageId}/context[?version=N]: what the narrator was sent for one
// reply (the version shown, or the one named), block by block. A reply made before such records
// were kept answers 404 with a message the viewer shows as it is.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { narratorContextSchema } from '@shared/schemas/story-cards';
import { apiGet } from '@client/lib/api-client';

export interface NarratorContextTarget {
  messageId: number;
  /** The version of the reply shown, when it has several. */
  version?: number;
}

export const narratorContextQueryKey = (storyId: number, { messageId, version }: NarratorContextTarget) =>
  ['narrator-context', storyId, messageId, version ?? null] as const;

export function narratorContextPath(storyId: number, { messageId, version }: NarratorContextTarget): string {
  const path = `/api/story/${storyId}/messages/${messageId}/context`;
  return version === undefined ? path : `${path}?version=${version}`;
}

export function narratorContextQueryOptions(storyId: number, target: NarratorContextTarget, enabled: boolean) {
  return queryOptions({
    queryKey: narratorContextQueryKey(storyId, target),
    queryFn: ({ signal }) => apiGet(narratorContextPath(storyId, target), { schema: narratorContextSchema, signal }),
    enabled,
    staleTime: 0,
    refetchOnWindowFocus: false,
    retry: false,
    meta: { errorToast: false },
  });
}

export function useNarratorContext(storyId: number, target: NarratorContextTarget, enabled: boolean) {
  return useQuery(narratorContextQueryOptions(storyId, target, enabled));
}
