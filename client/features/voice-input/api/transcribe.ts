// POST /api/speech/transcriptions (shared/schemas/speech.ts): the recording as the raw request
// body with its own Content-Type, answered with {text}. Not a JSON write, so it does not go through
// apiWrite; it keeps the same rules otherwise (session cookie, X-Requested-With, JSON answer).
// Every failure throws: the caller shows 'Recording Error' whatever the reason (spec section 8).
import { MAX_RECORDING_BYTES, SPEECH_MESSAGES, transcriptionResponseSchema } from '@shared/schemas/speech';
import { API_MESSAGES, ApiRequestError, CLIENT_ERROR_CODES } from '@client/lib/api-client';

export const TRANSCRIPTIONS_PATH = '/api/speech/transcriptions';

/** Sends a recording and answers the text the server heard in it (possibly empty). */
export async function transcribeAudio(audio: Blob, { signal }: { signal?: AbortSignal } = {}): Promise<string> {
  if (audio.size > MAX_RECORDING_BYTES) {
    throw new ApiRequestError(SPEECH_MESSAGES.audioTooLarge, { status: 413, code: CLIENT_ERROR_CODES.http });
  }
  let response: Response;
  try {
    response = await fetch(TRANSCRIPTIONS_PATH, {
      method: 'POST',
      body: audio,
      credentials: 'same-origin',
      headers: {
        'Content-Type': audio.type || 'application/octet-stream',
        Accept: 'application/json',
        'X-Requested-With': 'XMLHttpRequest',
      },
      signal,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiRequestError(API_MESSAGES.network, { status: 0, code: CLIENT_ERROR_CODES.network });
  }
  let body: unknown = null;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  if (!response.ok) {
    const message = typeof body === 'object' && body !== null && typeof (body as { message?: unknown }).message === 'string' ? (body as { message: string }).message : SPEECH_MESSAGES.recordFailed;
    throw new ApiRequestError(message, { status: response.status, code: CLIENT_ERROR_CODES.http });
  }
  const parsed = transcriptionResponseSchema.safeParse(body);
  if (!parsed.success) throw new ApiRequestError(API_MESSAGES.invalidResponse, { status: response.status, code: CLIENT_ERROR_CODES.invalidResponse });
  return parsed.data.text;
}
