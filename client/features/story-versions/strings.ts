// Every user-facing string of the player's control over a story: versions of a message,
// undo and redo, editing, erasing from a message, branches. Tests and UI read them from here.
import type { MessageVersionKind } from '@shared/schemas/story-versions';

export const STORY_VERSIONS_STRINGS = {
  previousVersion: 'Previous version',
  nextVersion: 'Next version',
  versionCount: (version: number, versions: number) => `${version} / ${versions}`,
  switcherLabel: 'Versions of this reply',

  undo: 'Undo',
  redo: 'Redo',

  messageActions: 'Message actions',
  edit: 'Edit',
  versions: 'Versions',
  eraseFromHere: 'Erase from here',
  branchFromHere: 'Branch from here',
  findingMessage: 'Getting this message ready…',

  editLabel: 'Edit this message',
  editHint: 'Ctrl+Enter saves; Escape cancels.',
  save: 'Save',
  saving: 'Saving…',
  cancel: 'Cancel',

  versionsTitle: 'Versions',
  versionsDescription: 'Every version of this message, oldest first. The story shows one of them.',
  versionLabel: (version: number) => `Version ${version}`,
  kinds: {
    original: 'Original',
    alternative: 'Alternative',
    edit: 'Edited',
    replacement: 'New action',
  } satisfies Record<MessageVersionKind, string>,
  shown: 'Shown',
  showThisVersion: 'Show this version',
  showVersionLabel: (version: number) => `Show version ${version}`,
  versionsLoading: 'Loading versions…',
  versionsFailed: 'The versions could not be loaded.',

  eraseTitle: 'Erase from here?',
  eraseText: 'This message and everything after it will be removed from the story. Redo brings it back.',
  erase: 'Erase',
  erasing: 'Erasing…',
  erased: 'Erased from here.',
  undoErase: 'Undo',
  undoEraseAlt: 'Bring back what was erased with Redo',

  branchCreated: 'Branch created.',

  branches: 'Branches',
  branchesDescription: 'Stories that go their own way from a moment of this one.',
  branchedFrom: 'Branched from',
  branchList: 'Branches of this story',
  noBranches: 'No branches yet.',
  branchesLoading: 'Loading branches…',
  branchesFailed: 'The branches could not be loaded.',

  errorTitle: 'Error',
  failed: 'Something went wrong. Please try again.',
} as const;
