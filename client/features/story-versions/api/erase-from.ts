// POST /api/story/{id}/erase: sets a message and everything after it aside (redo brings it back);
// the opening (the premise and its first reply) stays. Answers the story as it now stands.
import { storyStateResponseSchema, type StoryStateResponse } from '@shared/schemas/story';
import type { StoryEraseBody } from '@shared/schemas/story-versions';
import { apiWrite } from '@client/lib/api-client';

export function eraseFrom(storyId: number, fromMessageId: number): Promise<StoryStateResponse> {
  const body: StoryEraseBody = { fromMessageId };
  return apiWrite(`/api/story/${storyId}/erase`, { body, schema: storyStateResponseSchema });
}
