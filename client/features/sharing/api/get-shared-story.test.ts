// The shared story load chain: answers end it at once, failures are retried with the spec's delays
// and then fall back to the test endpoint and the built-in sample, always labelled with the reason.
import { describe, expect, it } from 'vitest';
import { SAMPLE_STORY } from '@shared/sample-story';
import { jsonResponse, mockFetch } from '@client/test/utils';
import { loadSharedStory } from './get-shared-story';

const STORY = {
  shareId: 'abcdEFGH12345678',
  title: 'The Moving Map',
  messages: [
    { role: 'user', content: 'Go' },
    { role: 'assistant', content: 'You go.' },
  ],
};

function recordingSleep() {
  const delays: number[] = [];
  return { delays, sleep: async (ms: number) => void delays.push(ms) };
}

const serverError = () => jsonResponse({ message: 'Something broke', code: 'INTERNAL_ERROR' }, { status: 500 });

describe('loadSharedStory', () => {
  it('returns the story from the main endpoint', async () => {
    const fetchMock = mockFetch(() => jsonResponse(STORY));
    expect(await loadSharedStory(STORY.shareId)).toEqual({ kind: 'story', story: STORY });
    expect(fetchMock.requests.map((r) => r.url)).toEqual([`/api/shared/${STORY.shareId}`]);
    expect(fetchMock.requests[0].credentials).toBe('include');
  });

  it('treats a 404 as an answer: no retry, no fallback, the spec text', async () => {
    const fetchMock = mockFetch(() => jsonResponse({ message: 'whatever', code: 'NOT_FOUND' }, { status: 404 }));
    const { sleep, delays } = recordingSleep();
    expect(await loadSharedStory('gone', { sleep })).toEqual({
      kind: 'unavailable',
      message: 'Story not found or has been removed by its creator',
    });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(delays).toEqual([]);
  });

  it("shows another refusal's own message (rate limited)", async () => {
    mockFetch(() =>
      jsonResponse(
        { message: 'Too many shared story requests. Please wait a minute and try again.', code: 'RATE_LIMITED' },
        { status: 429 },
      ),
    );
    expect(await loadSharedStory('x')).toEqual({
      kind: 'unavailable',
      message: 'Too many shared story requests. Please wait a minute and try again.',
    });
  });

  it('retries server failures twice (1 s, then 2 s), then shows the test story as a sample with the reason', async () => {
    const fetchMock = mockFetch(({ url }) => (url === '/api/shared/test' ? jsonResponse(SAMPLE_STORY) : serverError()));
    const { sleep, delays } = recordingSleep();
    const result = await loadSharedStory('abc123', { sleep });
    expect(result).toEqual({ kind: 'sample', story: SAMPLE_STORY, reason: 'Something broke' });
    expect(fetchMock.requests.map((r) => r.url)).toEqual([
      '/api/shared/abc123',
      '/api/shared/abc123',
      '/api/shared/abc123',
      '/api/shared/test',
    ]);
    expect(delays).toEqual([1000, 2000]);
  });

  it('retries once in the lightweight version', async () => {
    const fetchMock = mockFetch(({ url }) => (url === '/api/shared/test' ? jsonResponse(SAMPLE_STORY) : serverError()));
    const { sleep, delays } = recordingSleep();
    await loadSharedStory('abc123', { sleep, light: true });
    expect(fetchMock.requests.filter((r) => r.url === '/api/shared/abc123')).toHaveLength(2);
    expect(delays).toEqual([1000]);
  });

  it('falls back to the built-in sample when nothing can be reached', async () => {
    mockFetch(() => {
      throw new TypeError('Failed to fetch');
    });
    const result = await loadSharedStory('abc123', { sleep: recordingSleep().sleep });
    expect(result).toEqual({ kind: 'sample', story: SAMPLE_STORY, reason: 'Failed to load shared story' });
  });

  it('names unreadable answers: invalid JSON and non-object data', async () => {
    mockFetch(({ url }) =>
      url === '/api/shared/test' ? serverError() : new Response('<html>oops</html>', { status: 200 }),
    );
    expect(await loadSharedStory('abc123', { sleep: recordingSleep().sleep })).toMatchObject({
      kind: 'sample',
      reason: 'Invalid server response format',
    });
    mockFetch(({ url }) => (url === '/api/shared/test' ? serverError() : jsonResponse(['not', 'a', 'story'])));
    expect(await loadSharedStory('abc123', { sleep: recordingSleep().sleep })).toMatchObject({
      kind: 'sample',
      story: SAMPLE_STORY,
      reason: 'Invalid story data received',
    });
  });

  it('reads unknown roles as the narrator, missing content as empty and a missing title as Untitled Story', async () => {
    mockFetch(() =>
      jsonResponse({
        messages: [
          { role: 'narrator', content: 'Hi' },
          { role: 'user' },
          'junk',
          { role: 'assistant', content: 'Look', image: '/a.png' },
        ],
      }),
    );
    expect(await loadSharedStory('abc123')).toEqual({
      kind: 'story',
      story: {
        shareId: 'abc123',
        title: 'Untitled Story',
        messages: [
          { role: 'assistant', content: 'Hi' },
          { role: 'user', content: '' },
          { role: 'assistant', content: '' },
          { role: 'assistant', content: 'Look', image: '/a.png' },
        ],
      },
    });
  });
});
