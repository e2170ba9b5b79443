// POST /api/story/{id}/undo: takes back the story's last turn (the player's action and its reply),
// never the opening. Answers the story as it now stands, in the shape of a current-state read.
import { storyStateResponseSchema, type StoryStateResponse } from '@shared/schemas/story';
import { apiWrite } from '@client/lib/api-client';

export function undoTurn(storyId: number): Promise<StoryStateResponse> {
  return apiWrite(`/api/story/${storyId}/undo`, { schema: storyStateResponseSchema });
}
