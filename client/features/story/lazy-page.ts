// The story page, loaded lazily (React.lazy) in a chunk of its own, and fetched ahead of a visit.
import { lazy } from 'react';

const loadStoryPage = () => import('./components/story-page');

export const StoryPage = lazy(() => loadStoryPage().then((m) => ({ default: m.StoryPage })));

/** Fetches the story page's code ahead of a visit. */
export function preloadStoryPage(): void {
  void loadStoryPage();
}
