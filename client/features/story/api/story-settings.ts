// GET and PATCH /api/story/{id}/settings: the story's reply length and creativity (temperature),
// shown in the 'Story Experience' drawer. A change updates the cached copy at once and is sent as it
// is made; a failed one puts the copy back and says why.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { storySettingsSchema, type StorySettings, type StorySettingsBody } from '@shared/schemas/story-settings';
import { apiGet, apiWrite } from '@client/lib/api-client';

export const storySettingsQueryKey = (storyId: number) => ['story-settings', storyId] as const;

export function storySettingsQueryOptions(storyId: number) {
  return queryOptions({
    queryKey: storySettingsQueryKey(storyId),
    queryFn: ({ signal }) => apiGet(`/api/story/${storyId}/settings`, { schema: storySettingsSchema, signal }),
    staleTime: 60_000,
    retry: false,
    meta: { errorToast: false },
  });
}

export function useStorySettings(storyId: number | null, enabled = true) {
  return useQuery({ ...storySettingsQueryOptions(storyId ?? 0), enabled: enabled && storyId !== null });
}

export function saveStorySettings(storyId: number, body: StorySettingsBody): Promise<StorySettings> {
  return apiWrite(`/api/story/${storyId}/settings`, { method: 'PATCH', body, schema: storySettingsSchema });
}

export function useSaveStorySettingsMutation(storyId: number) {
  const queryClient = useQueryClient();
  const key = storySettingsQueryKey(storyId);
  return useMutation({
    mutationFn: (body: StorySettingsBody) => saveStorySettings(storyId, body),
    onMutate: async (body) => {
      await queryClient.cancelQueries({ queryKey: key });
      const before = queryClient.getQueryData<StorySettings>(key);
      if (before) queryClient.setQueryData<StorySettings>(key, { ...before, ...body });
      return { before };
    },
    onError: (_error, _body, context) => {
      if (context?.before) queryClient.setQueryData(key, context.before);
    },
    onSuccess: (saved) => queryClient.setQueryData(key, saved),
  });
}
