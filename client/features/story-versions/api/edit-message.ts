// PATCH /api/story/{id}/messages/{messageId}: the owner's edit becomes the message's newest version.
// The edit names the version it was made from; when another tab changed the message since, the
// server answers 409 with the version shown now, which this error carries (StaleEditError).
import { apiErrorSchema } from '@shared/schemas/common';
import {
  messageChangeResponseSchema,
  type MessageChangeResponse,
  type MessageEditBody,
  type StaleVersion,
} from '@shared/schemas/story-versions';
import { apiFetch, ApiRequestError, readJson } from '@client/lib/api-client';

export class StaleEditError extends ApiRequestError {
  /** The version the message shows now, to edit from next time. */
  readonly current: StaleVersion;

  constructor(error: ApiRequestError, current: StaleVersion) {
    super(error.message, { status: error.status, code: error.code, details: error.details });
    this.name = 'StaleEditError';
    this.current = current;
  }
}

export async function editMessage(
  storyId: number,
  messageId: number,
  body: MessageEditBody,
): Promise<MessageChangeResponse> {
  const response = await apiFetch(`/api/story/${storyId}/messages/${messageId}`, { method: 'PATCH', body });
  if (response.status !== 409) return readJson(response, messageChangeResponseSchema);
  const parsed = apiErrorSchema.safeParse(
    await response
      .clone()
      .json()
      .catch(() => null),
  );
  try {
    // Throws the one error shape of the API client, with the server's message.
    await readJson(response);
  } catch (error) {
    if (error instanceof ApiRequestError && parsed.success && parsed.data.current)
      throw new StaleEditError(error, parsed.data.current);
    throw error;
  }
  throw new ApiRequestError('Request failed', { status: 409, code: 'CONFLICT' });
}
