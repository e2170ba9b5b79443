// The story session as the story-versions feature sees it: the tab's story store lent to it (what
// is on screen, a whole story shown with its rows keeping their local ids, one message changed),
// each change also saved for the tab. Wired here so story-versions never imports story.
import {
  createStoryVersions,
  storyVersionsCalls,
  type StoryVersionsApi,
  type VersionsSession,
} from '@client/features/story-versions';
import { fetchCurrentState, toCurrentState, type CurrentStoryState } from '../api/load-story';
import { createLocalMessageId } from '../utils/message-id';
import { saveStory } from './persistence';
import { withStableIds, type LocalStoryMessage } from './story-state';
import { storyStore, type StoryStore } from './story-store';

export interface StoryVersionsDeps {
  store?: StoryStore;
  api?: StoryVersionsApi<CurrentStoryState>;
  newId?: () => string;
  persist?: boolean;
}

export function createVersionsSession(
  deps: Omit<StoryVersionsDeps, 'api'> = {},
): VersionsSession<LocalStoryMessage, CurrentStoryState> {
  const store = deps.store ?? storyStore;
  const newId = deps.newId ?? (() => createLocalMessageId());
  const persist = () => {
    if (deps.persist !== false) saveStory(store.getState());
  };
  return {
    getState: () => store.getState(),
    toStory: toCurrentState,
    show(storyId, story, earlier) {
      const messages = withStableIds(story.messages, store.getState().messages, newId, earlier);
      store.dispatch({
        type: 'loaded',
        storyId,
        messages,
        awaitingReply: false,
        storyImage: story.storyImage,
        canRedo: story.canRedo ?? false,
      });
      persist();
    },
    changeMessage(change) {
      store.dispatch({ type: 'messageChanged', ...change });
      persist();
    },
  };
}

/** The versions of the tab's story (or of the given store, for tests). */
export function createSessionVersions(deps: StoryVersionsDeps = {}) {
  const api = deps.api ?? { ...storyVersionsCalls, read: (storyId: number) => fetchCurrentState(storyId) };
  return createStoryVersions(createVersionsSession(deps), api);
}

export const storyVersions = createSessionVersions();
