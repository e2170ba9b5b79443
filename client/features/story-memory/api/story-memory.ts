// GET and PUT /api/story/{id}/memory: the story memory panel's premise, memory and notes. Read
// fresh each time the panel opens; a save updates the cached copy.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { storyMemorySchema, type StoryMemory, type StoryMemoryBody } from '@shared/schemas/story-memory';
import { apiGet, apiWrite } from '@client/lib/api-client';

export const storyMemoryQueryKey = (storyId: number) => ['story-memory', storyId] as const;

export function storyMemoryQueryOptions(storyId: number, enabled: boolean) {
  return queryOptions({
    queryKey: storyMemoryQueryKey(storyId),
    queryFn: ({ signal }) => apiGet(`/api/story/${storyId}/memory`, { schema: storyMemorySchema, signal }),
    enabled,
    staleTime: 0,
    refetchOnMount: 'always',
    // A refetch while the player edits would start the form over.
    refetchOnWindowFocus: false,
    retry: false,
    meta: { errorToast: false },
  });
}

export function useStoryMemory(storyId: number, enabled: boolean) {
  return useQuery(storyMemoryQueryOptions(storyId, enabled));
}

export function saveStoryMemory(storyId: number, body: StoryMemoryBody): Promise<StoryMemory> {
  return apiWrite(`/api/story/${storyId}/memory`, { method: 'PUT', body, schema: storyMemorySchema });
}

export function useSaveStoryMemoryMutation(storyId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: StoryMemoryBody) => saveStoryMemory(storyId, body),
    meta: { errorToast: false },
    onSuccess: (saved) => queryClient.setQueryData(storyMemoryQueryKey(storyId), saved),
  });
}
