// User-facing strings of the story library ('Your stories').
import { formatBookmarkDate } from '@client/features/bookmarks';

export const LIBRARY_STRINGS = {
  pageTitle: 'Your Stories',
  loading: 'Loading your stories…',
  loggedOutText: 'Sign in to see every story you have played.',
  signIn: 'Sign in or Register',
  emptyTitle: 'Your stories will appear here',
  emptyText: 'Start a story and it will wait for you here, ready to pick up where you left off.',
  startStory: 'Start a Story',
  noMatches: (query: string) => `No stories match "${query}".`,
  listLabel: 'Your stories',
  searchLabel: 'Search your stories by title',
  searchPlaceholder: 'Search by title',
  turns: (n: number) => (n === 1 ? '1 turn' : `${n} turns`),
  lastPlayed: (iso: string) => `Last played ${formatBookmarkDate(iso)}`,
  pictureAlt: (title: string) => `A scene from "${title}"`,

  open: 'Open',
  openLabel: (title: string) => `Open "${title}"`,
  rename: 'Rename',
  renameLabel: (title: string) => `Rename "${title}"`,
  titleLabel: 'Title',
  save: 'Save',
  saving: 'Saving…',
  cancel: 'Cancel',
  delete: 'Delete',
  deleteLabel: (title: string) => `Delete "${title}"`,
  deleteTitle: 'Delete Story',
  deleteText: (title: string) =>
    `Are you sure you want to delete "${title}"? Its bookmarks, shared links and pictures go with it. This action cannot be undone.`,
  deleting: 'Deleting…',

  export: 'Export',
  exportLabel: (title: string) => `Export "${title}"`,
  exportMarkdown: 'Markdown (to read)',
  exportJson: 'JSON (to import again)',
  importStory: 'Import a Story',
  importing: 'Importing…',
  importLabel: 'Import a story from a Taleweaver JSON file',
  imported: (title: string) => `"${title}" imported`,
  importFailed: 'Failed to import the story',

  previous: 'Previous',
  next: 'Next',
  pageOf: (page: number, pages: number) => `Page ${page} of ${pages}`,
  paginationLabel: 'Pages of your stories',

  successTitle: 'Success',
  errorTitle: 'Error',
  loadFailed: 'Failed to load your stories',
  renamed: 'Story renamed',
  renameFailed: 'Failed to rename the story',
  deleted: 'Story deleted',
  deleteFailed: 'Failed to delete the story',
} as const;

export const storyPath = (storyId: number) => `/story/${storyId}`;
export const exportPath = (storyId: number, format: 'markdown' | 'json') =>
  `/api/story/${storyId}/export?format=${format}`;
