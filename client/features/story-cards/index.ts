// The story-cards feature's door: the story page's 'Story Cards' button (its panel loads when first
// opened) and a reply's 'What the narrator saw' (the action, the page's one dialog and its state).
export { NarratorContextAction } from './components/narrator-context-action';
export { NarratorContextDialog } from './components/narrator-context-dialog';
export { StoryCardsButton } from './components/story-cards-button';
export { useNarratorContextViewer } from './hooks/use-narrator-context-viewer';
export type { NarratorContextDialogState, NarratorContextViewer } from './hooks/use-narrator-context-viewer';
