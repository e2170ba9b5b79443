// The early story read: started only for a story's address (not a bookmark's), taken once, for the
// same story, while fresh; and fetchCurrentState uses it instead of a second request.
import { afterEach, describe, expect, it } from 'vitest';
import { jsonResponse, mockFetch } from '@client/test/utils';
import { startEarlyStoryRead, takeEarlyStoryRead } from '@client/lib/early-story-read';
import { fetchCurrentState } from './load-story';

const STATE = {
  messages: [
    {
      messageId: 2,
      role: 'assistant',
      content: 'The fog lifts.',
      createdAt: '2026-01-01T00:00:00.000Z',
      isInitialMessage: false,
    },
  ],
  replying: false,
  images: [],
  storyImage: null,
};

afterEach(() => {
  takeEarlyStoryRead(-1);
});

describe('the early story read', () => {
  it('starts for /story/{id} only, and is taken once for that story while fresh', async () => {
    const fetch = mockFetch(() => jsonResponse(STATE));
    startEarlyStoryRead({ pathname: '/story/12', search: '' }, 1000);
    expect(fetch.requests.map((r) => r.url)).toEqual(['/api/story/12/current-state']);
    expect(takeEarlyStoryRead(13, 1100)).toBeNull();
    startEarlyStoryRead({ pathname: '/story/12', search: '' }, 1000);
    expect(takeEarlyStoryRead(12, 12_000)).toBeNull();
    startEarlyStoryRead({ pathname: '/story/12', search: '' }, 1000);
    expect(takeEarlyStoryRead(12, 1100)).not.toBeNull();
    expect(takeEarlyStoryRead(12, 1100)).toBeNull();

    startEarlyStoryRead({ pathname: '/story/12', search: '?messageId=4' });
    startEarlyStoryRead({ pathname: '/bookmarks', search: '' });
    startEarlyStoryRead({ pathname: '/story', search: '' });
    expect(fetch.requests).toHaveLength(3);
  });

  it('is what fetchCurrentState reads, with no second request', async () => {
    const fetch = mockFetch(() => jsonResponse(STATE));
    startEarlyStoryRead({ pathname: '/story/12', search: '' });
    const state = await fetchCurrentState(12);
    expect(state.messages.map((m) => m.content)).toEqual(['The fog lifts.']);
    expect(fetch.requests).toHaveLength(1);
    await fetchCurrentState(12);
    expect(fetch.requests).toHaveLength(2);
  });
});
