// POST /api/story/{id}/branch: a new story of the player's, "{title} (branch)", holding this story
// up to a message. The caller toasts its own outcome; the origin's list of branches is refreshed.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  storyBranchResponseSchema,
  type StoryBranchBody,
  type StoryBranchResponse,
} from '@shared/schemas/story-versions';
import { apiWrite } from '@client/lib/api-client';
import { branchesQueryKey } from './get-branches';

export function branchStory(storyId: number, messageId: number): Promise<StoryBranchResponse> {
  const body: StoryBranchBody = { messageId };
  return apiWrite(`/api/story/${storyId}/branch`, { body, schema: storyBranchResponseSchema });
}

export function useBranchStoryMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ storyId, messageId }: { storyId: number; messageId: number }) => branchStory(storyId, messageId),
    meta: { errorToast: false },
    onSuccess: (_created, { storyId }) => queryClient.invalidateQueries({ queryKey: branchesQueryKey(storyId) }),
  });
}
