// POST /api/story/{id}/redo: brings back the part of the story most recently undone or erased.
// Answers the story as it now stands, in the shape of a current-state read.
import { storyStateResponseSchema, type StoryStateResponse } from '@shared/schemas/story';
import { apiWrite } from '@client/lib/api-client';

export function redoTurn(storyId: number): Promise<StoryStateResponse> {
  return apiWrite(`/api/story/${storyId}/redo`, { schema: storyStateResponseSchema });
}
