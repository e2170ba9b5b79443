// The story-memory feature's door: the story page's 'Story Memory' button and panel.
export { StoryMemoryButton } from './components/story-memory-button';
