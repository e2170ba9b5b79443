// GET /api/story/{storyId}/messages/{messageId}/speech/{part}?voice=NAME (shared/schemas/speech.ts):
// one part of a saved narrator reply spoken in a server voice, as audio, with the number of parts in
// the x-speech-parts header. Audio is not JSON, so this is a plain fetcher (no query options) that
// the server-voice player calls part by part. It sends the session (same origin) but not the JSON
// reads' no-cache headers: the server answers clips with an ETag and 'no-cache', so the browser
// keeps a clip and only revalidates it, and a reply heard twice is not downloaded twice. A new clip is
// paid work, so the request says it is the app's own (OWN_APP_HEADER).
// Errors are the client's ApiRequestError, so a 429 carries the server's own words.
import { SPEECH_PARTS_HEADER } from '@shared/schemas/speech';
import { ApiRequestError, CLIENT_ERROR_CODES, OWN_APP_HEADER, readJson, send } from '@client/lib/api-client';
import type { SpeechPart } from '../speech/server-voice-player';

export interface SpeechPartRequest {
  storyId: number;
  messageId: number;
  part: number;
  voice: string;
}

export function speechPartPath({ storyId, messageId, part, voice }: SpeechPartRequest): string {
  return `/api/story/${storyId}/messages/${messageId}/speech/${part}?voice=${encodeURIComponent(voice)}`;
}

function invalidAudio(status: number): ApiRequestError {
  return new ApiRequestError('The server sent no audio', { status, code: CLIENT_ERROR_CODES.invalidResponse });
}

export async function fetchSpeechPart(request: SpeechPartRequest, signal?: AbortSignal): Promise<SpeechPart> {
  const response = await send(speechPartPath(request), {
    method: 'GET',
    credentials: 'same-origin',
    headers: { Accept: 'audio/mpeg, audio/*', ...OWN_APP_HEADER },
    signal,
  });
  if (!response.ok) {
    // readJson turns any non-OK answer into the client's error with the server's message.
    await readJson(response);
    throw invalidAudio(response.status);
  }
  const type = (response.headers.get('content-type') ?? '').toLowerCase();
  if (type.includes('json') || type.includes('text/html')) throw invalidAudio(response.status);
  const header = Number.parseInt(response.headers.get(SPEECH_PARTS_HEADER) ?? '', 10);
  const parts = Number.isFinite(header) && header > 0 ? header : 1;
  const audio = await response.blob();
  if (audio.size === 0) throw invalidAudio(response.status);
  return { audio, parts };
}
