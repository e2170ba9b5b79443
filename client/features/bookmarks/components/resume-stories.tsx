// The start screen's 'Resume a Story' list: each bookmark with its title and creation date-time,
// linking to the story at its last message. Loaded lazily by Home.
import { Link } from 'react-router';
import { BookOpen } from 'lucide-react';
import { Spinner } from '@client/components/ui/spinner';
import { errorMessage } from '@client/lib/api-client';
import { useBookmarks } from '../api/get-bookmarks';
import { BOOKMARKS_STRINGS, bookmarkPath, formatBookmarkDate } from '../strings';

export function ResumeStories() {
  const bookmarks = useBookmarks();
  if (bookmarks.isPending) return <Spinner label={BOOKMARKS_STRINGS.loading} />;
  if (bookmarks.isError)
    return <p className="text-destructive-text">{errorMessage(bookmarks.error, BOOKMARKS_STRINGS.loadFailed)}</p>;
  if (bookmarks.data.length === 0) return <p className="text-muted-foreground">{BOOKMARKS_STRINGS.resumeEmpty}</p>;
  return (
    <ul aria-label={BOOKMARKS_STRINGS.listLabel} className="grid gap-2">
      {bookmarks.data.map((bookmark) => (
        <li key={bookmark.id}>
          <Link
            to={bookmarkPath(bookmark)}
            className="flex items-center justify-between gap-4 rounded-lg border bg-card/70 px-4 py-3 transition-colors outline-none hover:bg-accent/40 focus-visible:ring-2 focus-visible:ring-ring"
          >
            <span className="flex min-w-0 items-center gap-2 font-medium">
              <BookOpen className="size-4 shrink-0 text-gold" aria-hidden="true" />
              <span className="truncate">{bookmark.title}</span>
            </span>
            <time dateTime={bookmark.createdAt} className="shrink-0 text-sm text-muted-foreground">
              {formatBookmarkDate(bookmark.createdAt)}
            </time>
          </Link>
        </li>
      ))}
    </ul>
  );
}
