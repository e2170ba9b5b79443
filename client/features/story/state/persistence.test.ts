// The saved story keeps each reply's picture state, so a reload shows (and keeps polling) it, and
// what each reply cost; an entry in an unknown shape is dropped as a whole.
import { describe, expect, it } from 'vitest';
import { LOCAL_STORAGE_KEYS } from '@client/lib/storage-keys';
import { loadSavedStory, saveStory } from './persistence';
import { initialStoryState, type StoryState } from './story-state';

describe('story persistence', () => {
  it('keeps pictures being painted, painted and failed', () => {
    const state: StoryState = {
      ...initialStoryState,
      ownerId: 7,
      storyId: 5,
      storyImage: '/api/images/a.webp',
      messages: [
        {
          id: 'a',
          messageId: 2,
          role: 'assistant',
          content: 'One',
          image: '/api/images/a.webp',
          picture: {
            status: 'ready',
            url: '/api/images/a.webp',
            thumbnail: '/api/images/a.thumb.webp',
            alt: 'A harbour',
          },
        },
        { id: 'b', messageId: 4, role: 'assistant', content: 'Two', picture: { status: 'pending' } },
        {
          id: 'c',
          messageId: 6,
          role: 'assistant',
          content: 'Three',
          picture: { status: 'failed', reason: 'The painter took too long to answer.' },
        },
      ],
    };
    saveStory(state);
    expect(loadSavedStory()).toEqual({
      ownerId: 7,
      storyId: 5,
      prompt: null,
      storyImage: '/api/images/a.webp',
      messages: state.messages,
    });
  });

  it("keeps each reply's cost figures across a reload", () => {
    const state: StoryState = {
      ...initialStoryState,
      ownerId: 7,
      storyId: 5,
      messages: [
        { id: 'p', messageId: 1, role: 'user', content: 'A harbour', isInitialMessage: true },
        {
          id: 'a',
          messageId: 2,
          role: 'assistant',
          content: 'One',
          usage: { inputTokens: 1234, outputTokens: 210, cachedInputTokens: 691, costUsd: 0.0058, calls: 2 },
        },
        {
          id: 'b',
          messageId: 4,
          role: 'assistant',
          content: 'Two',
          usage: { inputTokens: 900, outputTokens: 120, costUsd: 0, calls: 1 },
        },
      ],
    };
    saveStory(state);
    expect(loadSavedStory()?.messages).toEqual(state.messages);
  });

  it('reads an entry with a picture in an unknown shape as absent', () => {
    window.localStorage.setItem(
      LOCAL_STORAGE_KEYS.currentStory,
      JSON.stringify({
        storyId: 5,
        messages: [{ id: 'a', role: 'assistant', content: 'x', picture: { status: 'painting' } }],
      }),
    );
    expect(loadSavedStory()).toBeNull();
  });
});
