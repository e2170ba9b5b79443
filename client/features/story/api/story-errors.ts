// Errors of the story API helper. A failed turn also says whether the player's
// action reached the server (`committed`): if it did, Retry answers it there; if not, the text goes
// back into the input so nothing typed is lost.
import { ApiRequestError, CLIENT_ERROR_CODES } from '@client/lib/api-client';
import { STORY_API_MESSAGES } from '../strings';

export class StoryTurnError extends ApiRequestError {
  readonly committed: boolean;
  /** A failed start still created its story; the error names it so Retry happens there. */
  readonly storyId: number | undefined;
  /** A narrator's failure names the narrator, so the page can offer to switch to another. */
  readonly narrator: string | undefined;

  constructor(
    message: string,
    options: { status: number; code: string; committed: boolean; storyId?: number; narrator?: string },
  ) {
    super(message, { status: options.status, code: options.code });
    this.name = 'StoryTurnError';
    this.committed = options.committed;
    this.storyId = options.storyId;
    this.narrator = options.narrator;
  }
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

/** Spec: 5xx -> status text or 'Server error'; else error (string), error.message or message, else status code and text. */
export async function storyErrorFromResponse(response: Response): Promise<StoryTurnError> {
  const status = response.status;
  let body: unknown = null;
  let parsed = false;
  try {
    body = JSON.parse(await response.text()) as unknown;
    parsed = true;
  } catch {
    parsed = false;
  }
  const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const code = text(record.code) ?? CLIENT_ERROR_CODES.http;
  const storyId = typeof record.storyId === 'number' ? record.storyId : undefined;
  const narrator = text(record.narrator) ?? undefined;
  let message: string;
  if (status >= 500) message = text(response.statusText) ?? STORY_API_MESSAGES.serverError;
  else if (!parsed) message = text(response.statusText) ?? STORY_API_MESSAGES.invalidErrorBody;
  else {
    const nested =
      typeof record.error === 'object' && record.error !== null
        ? (record.error as Record<string, unknown>).message
        : undefined;
    message = text(record.error) ?? text(nested) ?? text(record.message) ?? `${status} ${response.statusText}`.trim();
  }
  return new StoryTurnError(message, { status, code, committed: false, storyId, narrator });
}
