// The story feature's door: the story page (lazily loaded, and fetched ahead by Home) and how another
// page forgets a story it deleted.
export { forgetStory } from './state/forget-story';
export { StoryPage, preloadStoryPage } from './lazy-page';
