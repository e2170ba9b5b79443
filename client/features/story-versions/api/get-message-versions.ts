// GET /api/story/{id}/messages/{messageId}/versions: every version of a message, oldest first, and
// the one shown. Read fresh each time the Versions dialog opens.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { messageVersionsResponseSchema, type MessageVersionsResponse } from '@shared/schemas/story-versions';
import { apiGet } from '@client/lib/api-client';

export const messageVersionsQueryKey = (storyId: number, messageId: number) =>
  ['message-versions', storyId, messageId] as const;

export function fetchMessageVersions(
  storyId: number,
  messageId: number,
  signal?: AbortSignal,
): Promise<MessageVersionsResponse> {
  return apiGet(`/api/story/${storyId}/messages/${messageId}/versions`, {
    schema: messageVersionsResponseSchema,
    signal,
  });
}

export function messageVersionsQueryOptions(storyId: number, messageId: number, enabled: boolean) {
  return queryOptions({
    queryKey: messageVersionsQueryKey(storyId, messageId),
    queryFn: ({ signal }) => fetchMessageVersions(storyId, messageId, signal),
    enabled,
    staleTime: 0,
    refetchOnMount: 'always',
    refetchOnWindowFocus: false,
    retry: false,
    meta: { errorToast: false },
  });
}

export function useMessageVersions(storyId: number, messageId: number, enabled: boolean) {
  return useQuery(messageVersionsQueryOptions(storyId, messageId, enabled));
}
