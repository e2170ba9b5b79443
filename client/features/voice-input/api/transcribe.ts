// POST /api/speech/transcriptions (shared/schemas/speech.ts): the recording as the raw request
// body with its own Content-Type, answered with {text}. Not a JSON write, so it does not go through
// apiWrite; it goes through the client's send and readJson (session cookie, one network error, the
// server's message on failure, the schema on success).
// Every failure throws: the caller shows 'Recording Error' whatever the reason.
import { MAX_RECORDING_BYTES, SPEECH_MESSAGES, transcriptionResponseSchema } from '@shared/schemas/speech';
import { ApiRequestError, CLIENT_ERROR_CODES, readJson, send } from '@client/lib/api-client';

export const TRANSCRIPTIONS_PATH = '/api/speech/transcriptions';

/** Sends a recording and answers the text the server heard in it (possibly empty). */
export async function transcribeAudio(audio: Blob, { signal }: { signal?: AbortSignal } = {}): Promise<string> {
  if (audio.size > MAX_RECORDING_BYTES) {
    throw new ApiRequestError(SPEECH_MESSAGES.audioTooLarge, { status: 413, code: CLIENT_ERROR_CODES.http });
  }
  const response = await send(TRANSCRIPTIONS_PATH, {
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
  // The client's one reading of an answer: the server's message on failure, the schema on success.
  return (await readJson(response, transcriptionResponseSchema)).text;
}
