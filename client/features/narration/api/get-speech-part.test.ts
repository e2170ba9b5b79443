// GET /api/story/{storyId}/messages/{messageId}/speech/{part}?voice=NAME: the path (voice encoded),
// session credentials, the x-speech-parts count, and the errors (the server's message, no audio).
import { describe, expect, it } from 'vitest';
import { jsonResponse, mockFetch } from '@client/test/utils';
import { fetchSpeechPart, speechPartPath } from './get-speech-part';

const audioResponse = (bytes: number, headers: Record<string, string> = {}) =>
  new Response(new Uint8Array(bytes), { headers: { 'Content-Type': 'audio/mpeg', 'X-Speech-Parts': '4', ...headers } });

describe('fetchSpeechPart', () => {
  it('asks for one part in the named voice with the session and answers its audio and the part count', async () => {
    const fetchMock = mockFetch(() => audioResponse(16));
    const part = await fetchSpeechPart({ storyId: 5, messageId: 12, part: 0, voice: 'en-GB Ryan (high)' });
    expect(fetchMock.requests[0].url).toBe('/api/story/5/messages/12/speech/0?voice=en-GB%20Ryan%20(high)');
    expect(fetchMock.requests[0].method).toBe('GET');
    expect(fetchMock.requests[0].credentials).toBe('same-origin');
    expect(fetchMock.requests[0].headers.get('accept')).toBe('audio/mpeg, audio/*');
    // A new clip is paid work: the request says it is the app's own.
    expect(fetchMock.requests[0].headers.get('x-requested-with')).toBe('XMLHttpRequest');
    // Not the JSON reads' no-cache headers: the browser may keep the clip and revalidate it by ETag.
    expect(fetchMock.requests[0].headers.get('cache-control')).toBeNull();
    expect(part.parts).toBe(4);
    expect(part.audio.size).toBe(16);
    expect(speechPartPath({ storyId: 1, messageId: 2, part: 3, voice: 'a&b' })).toBe(
      '/api/story/1/messages/2/speech/3?voice=a%26b',
    );
  });

  it('counts one part when the header is missing or unreadable', async () => {
    mockFetch(() => audioResponse(4, { 'X-Speech-Parts': 'many' }));
    expect((await fetchSpeechPart({ storyId: 5, messageId: 12, part: 0, voice: 'aria' })).parts).toBe(1);
  });

  it("throws the server's message for a refused part", async () => {
    mockFetch(() =>
      jsonResponse(
        { message: 'You have asked for too much narration this hour.', code: 'RATE_LIMITED' },
        { status: 429 },
      ),
    );
    await expect(fetchSpeechPart({ storyId: 5, messageId: 12, part: 0, voice: 'aria' })).rejects.toMatchObject({
      status: 429,
      message: 'You have asked for too much narration this hour.',
    });
  });

  it('throws the network error when the server cannot be reached, and lets an abort through', async () => {
    mockFetch(() => Promise.reject(new TypeError('Failed to fetch')));
    await expect(fetchSpeechPart({ storyId: 5, messageId: 12, part: 0, voice: 'aria' })).rejects.toMatchObject({
      status: 0,
      code: 'NETWORK_ERROR',
    });
    mockFetch(() => Promise.reject(new DOMException('stopped', 'AbortError')));
    await expect(fetchSpeechPart({ storyId: 5, messageId: 12, part: 0, voice: 'aria' })).rejects.toMatchObject({
      name: 'AbortError',
    });
  });

  it('throws when the answer is not audio or is empty', async () => {
    mockFetch(() => jsonResponse({ ok: true }));
    await expect(fetchSpeechPart({ storyId: 5, messageId: 12, part: 0, voice: 'aria' })).rejects.toMatchObject({
      code: 'INVALID_RESPONSE',
    });
    mockFetch(() => audioResponse(0));
    await expect(fetchSpeechPart({ storyId: 5, messageId: 12, part: 0, voice: 'aria' })).rejects.toMatchObject({
      code: 'INVALID_RESPONSE',
    });
  });
});
