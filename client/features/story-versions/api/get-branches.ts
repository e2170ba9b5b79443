// GET /api/story/{id}/branches: the story this one was branched from (while it is still the
// player's) and its own branches, newest first. Read fresh each time the Branches dialog opens.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { storyFamilySchema, type StoryFamily } from '@shared/schemas/story-versions';
import { apiGet } from '@client/lib/api-client';

export const branchesQueryKey = (storyId: number) => ['story-branches', storyId] as const;

export function fetchBranches(storyId: number, signal?: AbortSignal): Promise<StoryFamily> {
  return apiGet(`/api/story/${storyId}/branches`, { schema: storyFamilySchema, signal });
}

export function branchesQueryOptions(storyId: number, enabled: boolean) {
  return queryOptions({
    queryKey: branchesQueryKey(storyId),
    queryFn: ({ signal }) => fetchBranches(storyId, signal),
    enabled,
    staleTime: 0,
    refetchOnMount: 'always',
    retry: false,
    meta: { errorToast: false },
  });
}

export function useBranches(storyId: number, enabled: boolean) {
  return useQuery(branchesQueryOptions(storyId, enabled));
}
