// /bookmarks: 'Your Bookmarks'. Visitors are offered 'Sign in or Register' in a dialog (opened on
// arrival) and stay on /bookmarks afterwards; players see their bookmarks newest first, each
// linking to its story at the bookmarked message, editable and deletable in place.
import { Home } from 'lucide-react';
import { CollectionEmptyCard, CollectionList, CollectionPage } from '@client/components/collection/collection-page';
import { PageSpinner } from '@client/components/page';
import { Alert, AlertDescription } from '@client/components/ui/alert';
import { errorMessage } from '@client/lib/api-client';
import { SignInPrompt, useSession } from '@client/features/auth';
import { useBookmarks } from '../api/get-bookmarks';
import { BOOKMARKS_STRINGS } from '../strings';
import { BookmarkCard } from './bookmark-card';

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
  if (bookmarks.data.length === 0) {
    return (
      <CollectionEmptyCard
        title={BOOKMARKS_STRINGS.emptyTitle}
        text={BOOKMARKS_STRINGS.emptyText}
        action={{ to: '/', icon: <Home aria-hidden="true" />, label: BOOKMARKS_STRINGS.goHome }}
      />
    );
  }
  return (
    <CollectionList
      label={BOOKMARKS_STRINGS.listLabel}
      className="grid gap-4"
      items={bookmarks.data}
      render={(bookmark) => <BookmarkCard bookmark={bookmark} />}
    />
  );
}

export function BookmarksPage() {
  return (
    <CollectionPage
      title={BOOKMARKS_STRINGS.pageTitle}
      loadingLabel={BOOKMARKS_STRINGS.loading}
      session={useSession()}
      signInPrompt={
        <SignInPrompt
          title={BOOKMARKS_STRINGS.pageTitle}
          text={BOOKMARKS_STRINGS.loggedOutText}
          signInLabel={BOOKMARKS_STRINGS.signIn}
        />
      }
    >
      <BookmarkList />
    </CollectionPage>
  );
}
