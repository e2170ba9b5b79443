// The share flow's calls: POST /api/story/{storyId}/share, the title suggestion
// (GET /api/story/{storyId}/generate-title) and the story's last message id for the bookmark made
// while sharing (GET /api/story/{storyId}/current-state).
import { useMutation } from '@tanstack/react-query';
import { shareResponseSchema, type ShareResponse } from '@shared/schemas/sharing';
import { storyStateResponseSchema, storyTitleResponseSchema } from '@shared/schemas/story';
import { apiGet, apiWrite } from '@client/lib/api-client';

export function shareStory({ storyId, title }: { storyId: number; title: string }): Promise<ShareResponse> {
  return apiWrite(`/api/story/${storyId}/share`, { body: { title }, schema: shareResponseSchema });
}

/** The flow shows its own 'Error' toast with the spec's default, so the generic one is off. */
export function useShareStoryMutation() {
  return useMutation({ mutationFn: shareStory, meta: { errorToast: false } });
}

export async function fetchSuggestedTitle(storyId: number, signal?: AbortSignal): Promise<string> {
  const { title } = await apiGet(`/api/story/${storyId}/generate-title`, {
    schema: storyTitleResponseSchema,
    signal,
    startsPaidWork: true,
  });
  return title;
}

export async function fetchLastMessageId(storyId: number): Promise<number | null> {
  const { messages } = await apiGet(`/api/story/${storyId}/current-state`, { schema: storyStateResponseSchema });
  return messages.at(-1)?.messageId ?? null;
}
