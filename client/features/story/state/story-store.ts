// The one story session of the tab, kept outside React so a reply keeps streaming while the player
// visits another page, and so Home can hand a new story to the story page. Components read it
// with useStoryState(); only the controller writes to it.
import { useSyncExternalStore } from 'react';
import { initialStoryState, storyReducer, type StoryAction, type StoryState } from './story-state';

export interface StoryStore {
  getState(): StoryState;
  dispatch(action: StoryAction): void;
  subscribe(listener: () => void): () => void;
}

export function createStoryStore(initial: StoryState = initialStoryState): StoryStore {
  let state = initial;
  const listeners = new Set<() => void>();
  return {
    getState: () => state,
    dispatch(action) {
      const next = storyReducer(state, action);
      if (next === state) return;
      state = next;
      listeners.forEach((listener) => listener());
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export const storyStore = createStoryStore();

export function useStoryState(store: StoryStore = storyStore): StoryState {
  return useSyncExternalStore(store.subscribe, store.getState, store.getState);
}
