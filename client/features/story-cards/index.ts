// The story-cards feature's door: the story page's 'Story Cards' button (its panel loads when first
// opened) and a reply's 'What the narrator saw' (the action, the page's one dialog and its state);
// for the Story Bible's suggested cards, the cards' writes (adding one refreshes the list) and a key's chip.
export { useStoryCardMutations } from './api/story-card-mutations';
export { KeyChip } from './components/key-chip';
export { NarratorContextAction } from './components/narrator-context-action';
export { NarratorContextDialog } from './components/narrator-context-dialog';
export { StoryCardsButton } from './components/story-cards-button';
export { useNarratorContextViewer } from './hooks/use-narrator-context-viewer';
export type { NarratorContextDialogState, NarratorContextViewer } from './hooks/use-narrator-context-viewer';
