// User-facing strings of the preferences page: labels for the three
// selects and their values, the narrator of new stories, the logged-out hint and the toasts.
import type { Preferences } from '@shared/schemas/preferences';

export const PREFERENCES_STRINGS = {
  pageTitle: 'Story Preferences',
  pageText: 'Choose how the narrator tells your stories. Changes apply from your next turn.',
  loggedOutHint: 'Your preferences are saved to your account.',
  loginLink: 'Log in to change them',
  saving: 'Saving…',
  successTitle: 'Success',
  saved: 'Your preferences have been saved.',
  authTitle: 'Authentication Required',
  authText: 'Please log in to save your preferences.',
  errorTitle: 'Error',
  saveFailed: 'Failed to save preferences',
  narratorLabel: 'Narrator for new stories',
  /** Under the narrator select: what it says of itself, and that each story keeps its own. */
  narratorHint: (description: string) =>
    `${description ? `${description} ` : ''}Stories you start from now on begin with this narrator; a story's own settings can change it.`,
} as const;

type Options<K extends keyof Preferences> = Array<{ value: Preferences[K]; label: string; hint: string }>;

export const PREFERENCE_FIELDS: {
  contentRating: { label: string; options: Options<'contentRating'> };
  narrativeStyle: { label: string; options: Options<'narrativeStyle'> };
  languageStyle: { label: string; options: Options<'languageStyle'> };
} = {
  contentRating: {
    label: 'Content Rating',
    options: [
      { value: 'general', label: 'General', hint: 'Suitable for all ages.' },
      { value: 'teen', label: 'Teen', hint: 'Mild violence, peril and darker themes.' },
      {
        value: 'mature',
        label: 'Mature',
        hint: 'Adult themes, intense violence and strong language when the story calls for them.',
      },
    ],
  },
  narrativeStyle: {
    label: 'Narrative Style',
    options: [
      { value: 'descriptive', label: 'Descriptive', hint: 'Rich sensory detail and atmosphere.' },
      { value: 'concise', label: 'Concise', hint: 'Short, direct replies that keep the story moving.' },
      { value: 'dramatic', label: 'Dramatic', hint: 'Heightened emotion, tension and vivid stakes.' },
    ],
  },
  languageStyle: {
    label: 'Language Style',
    options: [
      { value: 'modern', label: 'Modern', hint: 'Contemporary everyday English.' },
      { value: 'archaic', label: 'Archaic', hint: 'Old-fashioned wording with the flavour of older tales.' },
      { value: 'formal', label: 'Formal', hint: 'Polished, precise and elevated prose.' },
    ],
  },
};
