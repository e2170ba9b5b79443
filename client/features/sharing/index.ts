// The sharing feature's door: the shared-story page and the 'Share' button of the story page.
export { ShareStoryButton } from './components/share-story-button';
export { SharedStoryPage } from './lazy-page';
