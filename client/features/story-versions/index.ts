// The story-versions feature's door: its state and hook (run over a session the story feature lends),
// the controls the story page draws (menus, editor, arrows, Undo/Redo, Branches, dialogs) and their types.
export { StaleEditError } from './api/edit-message';
export { BranchesButton } from './components/branches-button';
export { MessageActionsMenu } from './components/message-actions-menu';
export { MessageEditor } from './components/message-editor';
export { StoryVersionsDialogs } from './components/story-versions-dialogs';
export { UndoRedoButtons } from './components/undo-redo-buttons';
export { VersionSwitcher } from './components/version-switcher';
export { useStoryVersions } from './hooks/use-story-versions';
export type { StoryVersionsControls } from './hooks/use-story-versions';
export { createStoryVersions, storyVersionsCalls } from './state/story-versions';
export type { StoryVersionsApi, VersionsSession } from './state/story-versions';
export type { MessageControls, MessageEditorState, VersionsChatProps } from './types';
