// The bookmarks page and Home's list of bookmarks to resume, each loaded lazily (React.lazy) in a chunk of its own.
import { lazy } from 'react';

export const BookmarksPage = lazy(() =>
  import('./components/bookmarks-page').then((m) => ({ default: m.BookmarksPage })),
);

/** The bookmarks to resume on Home, in their own chunk (they need the bookmark schemas). */
export const ResumeStories = lazy(() =>
  import('./components/resume-stories').then((m) => ({ default: m.ResumeStories })),
);
