// User-facing strings of the story memory panel (issue 12).
import { STORY_NOTES_MAX_LENGTH } from '@shared/schemas/story-memory';

export const STORY_MEMORY_STRINGS = {
  tooltip: 'Story Memory',
  title: 'Story Memory',
  description: 'What the narrator works from besides the latest turns. Changes count from the next turn.',
  loading: 'Loading the story memory…',
  loadFailed: 'Failed to load the story memory',
  premiseLabel: 'Premise',
  premiseHint: 'Pinned: the narrator always sees it.',
  summaryLabel: 'Memory',
  summaryHint:
    'A summary of the earlier turns, written by the narrator as the story grows. Correct it or add what matters.',
  summaryEmpty: 'Nothing folded yet: the narrator still sees every turn.',
  notesLabel: 'Notes',
  notesHint: 'Sent with every turn, like an author’s note: tone, rules, facts to keep.',
  notesPlaceholder: 'For example: keep the tone eerie; Ysolde never lies.',
  notesCount: (n: number) => `${n} / ${STORY_NOTES_MAX_LENGTH}`,
  save: 'Save',
  saving: 'Saving…',
  cancel: 'Cancel',
  saved: 'Story memory saved',
  saveFailed: 'Failed to save the story memory',
  successTitle: 'Success',
  errorTitle: 'Error',
} as const;
