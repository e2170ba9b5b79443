// /bookmarks: 'Your Bookmarks'. Visitors are offered 'Sign in or Register' in a dialog (opened on
// arrival) and stay on /bookmarks afterwards; players see their bookmarks newest first, each
// linking to its story at the bookmarked message, editable and deletable in place.
import { Link } from 'react-router';
import { Home } from 'lucide-react';
import { PageContainer, PageSpinner } from '@client/components/page';
import { Alert, AlertDescription } from '@client/components/ui/alert';
import { Button } from '@client/components/ui/button';
import { Card } from '@client/components/ui/card';
import { errorMessage } from '@client/lib/api-client';
import { usePageTitle } from '@client/lib/use-page-title';
import { SignInPrompt, useSession } from '@client/features/auth';
import { useBookmarks } from '../api/get-bookmarks';
import { BOOKMARKS_STRINGS } from '../strings';
import { BookmarkCard } from './bookmark-card';

function EmptyState() {
  return (
    <Card className="grid justify-items-center gap-3 p-10 text-center">
      <h2 className="text-xl font-semibold">{BOOKMARKS_STRINGS.emptyTitle}</h2>
      <p className="text-muted-foreground">{BOOKMARKS_STRINGS.emptyText}</p>
      <Button asChild>
        <Link to="/">
          <Home aria-hidden="true" />
          {BOOKMARKS_STRINGS.goHome}
        </Link>
      </Button>
    </Card>
  );
}

function BookmarkList() {
  const bookmarks = useBookmarks();
  if (bookmarks.isPending) return <PageSpinner label={BOOKMARKS_STRINGS.loading} />;
  if (bookmarks.isError) {
    return (
      <Alert variant="destructive">
        <AlertDescription>{errorMessage(bookmarks.error, BOOKMARKS_STRINGS.loadFailed)}</AlertDescription>
      </Alert>
    );
  }
  if (bookmarks.data.length === 0) return <EmptyState />;
  return (
    <ul aria-label={BOOKMARKS_STRINGS.listLabel} className="grid gap-4">
      {bookmarks.data.map((bookmark) => (
        <li key={bookmark.id}>
          <BookmarkCard bookmark={bookmark} />
        </li>
      ))}
    </ul>
  );
}

export function BookmarksPage() {
  const { isLoading, isLoggedIn } = useSession();
  usePageTitle(BOOKMARKS_STRINGS.pageTitle);
  if (isLoading) return <PageSpinner label={BOOKMARKS_STRINGS.loading} />;
  if (!isLoggedIn)
    return (
      <SignInPrompt
        title={BOOKMARKS_STRINGS.pageTitle}
        text={BOOKMARKS_STRINGS.loggedOutText}
        signInLabel={BOOKMARKS_STRINGS.signIn}
      />
    );
  return (
    <PageContainer className="grid gap-6">
      <h1 className="text-3xl font-semibold">{BOOKMARKS_STRINGS.pageTitle}</h1>
      <BookmarkList />
    </PageContainer>
  );
}
