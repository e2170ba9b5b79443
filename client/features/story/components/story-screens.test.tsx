// The creation screens rotate their message every 3 s through the spec's four, in order; the saved
// story round-trips through localStorage and an unreadable one counts as absent.
import { act, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { LOCAL_STORAGE_KEYS } from '@client/lib/storage-keys';
import { jsonResponse, mockFetch, renderWithProviders } from '@client/test/utils';
import { clearSavedStory, loadSavedStory, saveStory } from '../state/persistence';
import { initialStoryState } from '../state/story-state';
import { CreatingStoryScreen, StoryLoadingScreen } from './story-screens';

const MESSAGES = [
  'Crafting your unique narrative adventure',
  'Weaving together story elements and characters',
  'Building an immersive world just for you',
  'Bringing your story to life',
];

describe('story creation screens', () => {
  beforeEach(() => {
    mockFetch((request) =>
      request.url === '/api/features'
        ? jsonResponse({
            images: false,
            speech: { voices: [], transcription: false },
            ads: { enabled: true, sponsorUrl: null },
          })
        : jsonResponse({ message: 'Not found' }, { status: 404 }),
    );
  });

  it.each([
    ['the full-screen view', StoryLoadingScreen],
    ['Creating Your Story', CreatingStoryScreen],
  ])('%s rotates its message every 3 seconds', (_name, Screen) => {
    vi.useFakeTimers();
    renderWithProviders(<Screen />);
    for (const expected of [...MESSAGES, MESSAGES[0]]) {
      expect(screen.getByText(expected)).toBeInTheDocument();
      act(() => vi.advanceTimersByTime(2999));
      expect(screen.getByText(expected)).toBeInTheDocument();
      act(() => vi.advanceTimersByTime(1));
    }
  });

  it('shows the spec texts, and an ad block on Creating Your Story only', async () => {
    vi.useRealTimers();
    renderWithProviders(
      <>
        <StoryLoadingScreen />
        <CreatingStoryScreen />
      </>,
    );
    expect(await screen.findAllByRole('region', { name: 'Ad: Support Taleweaver' })).toHaveLength(1);
    expect(
      screen.getByRole('heading', { name: 'Please wait while our AI crafts a unique narrative experience' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Creating Your Story' })).toBeInTheDocument();
    expect(screen.getByText("We're crafting your story...")).toBeInTheDocument();
    expect(screen.getAllByText('Writing story').length).toBeGreaterThan(0);
  });
});

describe('saved story', () => {
  it('keeps messages, story id, prompt and owner, without recovery notices', () => {
    saveStory({
      ...initialStoryState,
      ownerId: 3,
      storyId: 8,
      prompt: 'A harbour',
      messages: [
        { id: 'a', messageId: 1, role: 'user', content: 'A harbour', isInitialMessage: true },
        {
          id: 'n',
          role: 'assistant',
          content: 'Note: This story was recovered with some missing data.',
          isNotice: true,
        },
      ],
    });
    expect(loadSavedStory()).toEqual({
      ownerId: 3,
      storyId: 8,
      prompt: 'A harbour',
      storyImage: null,
      messages: [{ id: 'a', messageId: 1, role: 'user', content: 'A harbour', isInitialMessage: true }],
    });
    clearSavedStory();
    expect(loadSavedStory()).toBeNull();
  });

  it('reads a damaged entry as no story', () => {
    window.localStorage.setItem(LOCAL_STORAGE_KEYS.currentStory, '{"storyId": "x"');
    expect(loadSavedStory()).toBeNull();
    window.localStorage.setItem(LOCAL_STORAGE_KEYS.currentStory, JSON.stringify({ storyId: 'x', messages: [] }));
    expect(loadSavedStory()).toBeNull();
  });
});
