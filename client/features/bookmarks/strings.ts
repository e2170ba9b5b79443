// User-facing strings of the bookmarks feature.
export const BOOKMARKS_STRINGS = {
  pageTitle: 'Your Bookmarks',
  loading: 'Loading your bookmarks…',
  loggedOutText: 'Sign in to see and manage the stories you have saved.',
  signIn: 'Sign in or Register',
  emptyTitle: 'Your saved stories will appear here',
  emptyText: 'Bookmark a moment in a story and it will wait for you here.',
  goHome: 'Go Home',
  listLabel: 'Saved stories',
  savedOn: (date: string) => `Saved ${date}`,

  edit: 'Edit',
  editLabel: (title: string) => `Edit bookmark "${title}"`,
  delete: 'Delete',
  deleteLabel: (title: string) => `Delete bookmark "${title}"`,
  titleLabel: 'Title',
  descriptionLabel: 'Description',
  descriptionOptional: 'Description (optional)',
  save: 'Save',
  saving: 'Saving…',
  cancel: 'Cancel',

  deleteTitle: 'Delete Bookmark',
  deleteText: (title: string) => `Are you sure you want to delete "${title}"? This action cannot be undone.`,
  deleting: 'Deleting…',

  errorTitle: 'Error',
  loadFailed: 'Failed to load bookmarks',
  createFailed: 'Failed to create bookmark',
  updateFailed: 'Failed to update bookmark',
  deleteFailed: 'Failed to delete bookmark',
  created: 'Story bookmarked successfully',
  updated: 'Bookmark updated successfully',
  deleted: 'Bookmark deleted successfully',
  successTitle: 'Success',

  bookmarkTooltip: 'Bookmark',
  saveDialogTitle: 'Save Progress',
  saveDialogText: 'Bookmark this moment of the story to come back to it later.',
  titlePlaceholder: 'A name for this moment',
  descriptionPlaceholder: 'What is happening here? (optional)',
  saveFailed: 'Failed to save bookmark',
  saveSucceeded: 'Story progress saved',
  loginToSave: 'Please log in to save bookmarks',
  authTitle: 'Authentication Required',
  authText: 'Please log in or create an account to save bookmarks.',

  resumeTitle: 'Resume a Story',
  resumeEmpty: 'No saved stories found',
  manageBookmarks: 'Manage Bookmarks',
} as const;

/** en-US short month, day, year, hour and minute. */
const dateTime = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
});

export function formatBookmarkDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateTime.format(date);
}

export function bookmarkPath(bookmark: { storyId: number; lastMessageId: number }): string {
  return `/story/${bookmark.storyId}?messageId=${bookmark.lastMessageId}`;
}
