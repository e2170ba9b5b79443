// /stories: 'Your Stories', the player's library. Visitors are offered 'Sign in or Register' (the
// dialog opens on arrival); players see their stories newest played first, a page at a time, with
// a search by title, each one openable, exportable, renamable and deletable in place; a story file
// can be imported.
import { useState } from 'react';
import { ChevronLeft, ChevronRight, Search, Sparkles } from 'lucide-react';
import { LIBRARY_PAGE_SIZE, LIBRARY_QUERY_MAX_LENGTH } from '@shared/schemas/library';
import { CollectionEmptyCard, CollectionList, CollectionPage } from '@client/components/collection/collection-page';
import { PageSpinner } from '@client/components/page';
import { Alert, AlertDescription } from '@client/components/ui/alert';
import { Button } from '@client/components/ui/button';
import { Input } from '@client/components/ui/input';
import { errorMessage } from '@client/lib/api-client';
import { useDebouncedValue } from '@client/lib/use-debounced-value';
import { SignInPrompt, useSession } from '@client/features/auth';
import { useStories } from '../api/get-stories';
import { LIBRARY_STRINGS } from '../strings';
import { ImportStoryButton } from './import-story-button';
import { StoryTile } from './story-tile';

const SEARCH_DELAY_MS = 300;

function EmptyState({ query }: { query: string }) {
  if (query) return <p className="py-6 text-center text-muted-foreground">{LIBRARY_STRINGS.noMatches(query)}</p>;
  return (
    <CollectionEmptyCard
      title={LIBRARY_STRINGS.emptyTitle}
      text={LIBRARY_STRINGS.emptyText}
      action={{ to: '/', icon: <Sparkles aria-hidden="true" />, label: LIBRARY_STRINGS.startStory }}
    />
  );
}

function Pagination({ page, pages, onPage }: { page: number; pages: number; onPage: (page: number) => void }) {
  if (pages <= 1) return null;
  return (
    <nav aria-label={LIBRARY_STRINGS.paginationLabel} className="flex items-center justify-between gap-2">
      <Button variant="outline" size="sm" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        <ChevronLeft aria-hidden="true" />
        {LIBRARY_STRINGS.previous}
      </Button>
      <span className="text-sm text-muted-foreground" aria-live="polite">
        {LIBRARY_STRINGS.pageOf(page, pages)}
      </span>
      <Button variant="outline" size="sm" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        {LIBRARY_STRINGS.next}
        <ChevronRight aria-hidden="true" />
      </Button>
    </nav>
  );
}

function StoryLibrary() {
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const q = useDebouncedValue(search.trim(), SEARCH_DELAY_MS);
  const stories = useStories({ page, q });
  const data = stories.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / LIBRARY_PAGE_SIZE)) : 1;
  // A deletion can empty the last page: step back to the one that still has stories.
  if (data && data.stories.length === 0 && page > pages) setPage(pages);

  return (
    <div className="grid gap-4">
      <div className="relative">
        <Search
          className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
          aria-hidden="true"
        />
        <Input
          type="search"
          aria-label={LIBRARY_STRINGS.searchLabel}
          placeholder={LIBRARY_STRINGS.searchPlaceholder}
          maxLength={LIBRARY_QUERY_MAX_LENGTH}
          className="pl-9"
          value={search}
          onChange={(event) => {
            setSearch(event.target.value);
            setPage(1);
          }}
        />
      </div>
      {stories.isPending ? (
        <PageSpinner label={LIBRARY_STRINGS.loading} />
      ) : stories.isError ? (
        <Alert variant="destructive">
          <AlertDescription>{errorMessage(stories.error, LIBRARY_STRINGS.loadFailed)}</AlertDescription>
        </Alert>
      ) : data!.stories.length === 0 ? (
        <EmptyState query={q} />
      ) : (
        <>
          <CollectionList
            label={LIBRARY_STRINGS.listLabel}
            className="grid gap-3"
            busy={stories.isPlaceholderData}
            items={data!.stories}
            render={(story) => <StoryTile story={story} />}
          />
          <Pagination page={page} pages={pages} onPage={setPage} />
        </>
      )}
    </div>
  );
}

export function LibraryPage() {
  return (
    <CollectionPage
      title={LIBRARY_STRINGS.pageTitle}
      loadingLabel={LIBRARY_STRINGS.loading}
      session={useSession()}
      signInPrompt={
        <SignInPrompt
          title={LIBRARY_STRINGS.pageTitle}
          text={LIBRARY_STRINGS.loggedOutText}
          signInLabel={LIBRARY_STRINGS.signIn}
        />
      }
      headerActions={<ImportStoryButton />}
    >
      <StoryLibrary />
    </CollectionPage>
  );
}
