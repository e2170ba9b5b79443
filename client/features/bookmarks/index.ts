// The bookmarks feature's door: its page, Home's resume list, 'Save Progress', the bookmark query, strings.
export { useCreateBookmarkMutation } from './api/bookmark-mutations';
export { bookmarksQueryKey, bookmarksQueryOptions } from './api/get-bookmarks';
export { SaveProgressButton } from './components/save-progress';
export { BOOKMARKS_STRINGS, formatBookmarkDate } from './strings';
export { BookmarksPage, ResumeStories } from './lazy-page';
