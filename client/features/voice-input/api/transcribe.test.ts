// POST /api/speech/transcriptions: the raw recording with its own Content-Type, the session cookie
// and X-Requested-With; {text} read through the shared schema; every failure thrown.
import { describe, expect, it, vi } from 'vitest';
import { MAX_RECORDING_BYTES } from '@shared/schemas/speech';
import { fakeAudio } from '../testing/fakes';
import { transcribeAudio } from './transcribe';

function stubFetch(respond: () => Response | Promise<Response>) {
  const fetchMock = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) => respond());
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

describe('transcribeAudio', () => {
  it('posts the recording as the body with its type and answers the text', async () => {
    const fetchMock = stubFetch(() => json({ text: 'look behind the door' }));
    const audio = fakeAudio(4096, 'audio/webm;codecs=opus');
    const controller = new AbortController();
    await expect(transcribeAudio(audio, { signal: controller.signal })).resolves.toBe('look behind the door');
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0];
    expect(url).toBe('/api/speech/transcriptions');
    expect(init).toMatchObject({ method: 'POST', credentials: 'same-origin', signal: controller.signal });
    expect(init?.body).toBe(audio);
    const headers = new Headers(init?.headers);
    expect(headers.get('Content-Type')).toBe('audio/webm;codecs=opus');
    expect(headers.get('Accept')).toBe('application/json');
    expect(headers.get('X-Requested-With')).toBe('XMLHttpRequest');
  });

  it('answers an empty text as empty (nothing was heard)', async () => {
    stubFetch(() => json({ text: '' }));
    await expect(transcribeAudio(fakeAudio())).resolves.toBe('');
  });

  it.each([
    [
      'a 4xx',
      () =>
        json(
          { message: 'Send the recording as WebM, Ogg, MP4, MPEG or WAV audio.', code: 'UNSUPPORTED_MEDIA_TYPE' },
          415,
        ),
    ],
    [
      'a 5xx',
      () => json({ message: 'The transcription service is unavailable right now.', code: 'TRANSCRIPTION_FAILED' }, 502),
    ],
    ['a 5xx without JSON', () => new Response('<html>Bad gateway</html>', { status: 502 })],
    ['a body that is not JSON', () => new Response('not json', { status: 200 })],
    ['JSON of the wrong shape', () => json({ transcript: 'hello' })],
  ])('throws on %s', async (_label, respond) => {
    stubFetch(respond);
    await expect(transcribeAudio(fakeAudio())).rejects.toThrow();
  });

  it('throws on a network failure', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    await expect(transcribeAudio(fakeAudio())).rejects.toMatchObject({ status: 0 });
  });

  it('refuses a recording over 10 MB without sending it', async () => {
    const fetchMock = stubFetch(() => json({ text: 'never' }));
    const tooBig = new Blob([new Uint8Array(MAX_RECORDING_BYTES + 1)], { type: 'audio/webm' });
    await expect(transcribeAudio(tooBig)).rejects.toMatchObject({ status: 413 });
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('passes an abort through as an abort', async () => {
    const controller = new AbortController();
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        controller.abort();
        throw new DOMException('aborted', 'AbortError');
      }),
    );
    await expect(transcribeAudio(fakeAudio(), { signal: controller.signal })).rejects.toMatchObject({
      name: 'AbortError',
    });
  });
});
