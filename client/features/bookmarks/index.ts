// The bookmarks feature's door: the bookmarks page, 'Save Progress', the bookmark list query and strings others show.
export { useCreateBookmarkMutation } from './api/bookmark-mutations';
export { bookmarksQueryKey, bookmarksQueryOptions } from './api/get-bookmarks';
export { SaveProgressButton } from './components/save-progress';
export { BOOKMARKS_STRINGS, formatBookmarkDate } from './strings';
export { BookmarksPage, ResumeStories } from './lazy-page';
