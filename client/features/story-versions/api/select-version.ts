// POST /api/story/{id}/messages/{messageId}/select: the message shows another of its versions
// (and that version's picture, if it has one). Answers the message as it now shows.
import {
  messageChangeResponseSchema,
  type MessageChangeResponse,
  type MessageSelectBody,
} from '@shared/schemas/story-versions';
import { apiWrite } from '@client/lib/api-client';

export function selectVersion(storyId: number, messageId: number, version: number): Promise<MessageChangeResponse> {
  const body: MessageSelectBody = { version };
  return apiWrite(`/api/story/${storyId}/messages/${messageId}/select`, { body, schema: messageChangeResponseSchema });
}
