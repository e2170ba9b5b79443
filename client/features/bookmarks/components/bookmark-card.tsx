// One bookmark on the Bookmarks page: its title links to the story at the bookmarked message; it
// can be edited in place (title, description; Save/Cancel) or deleted after a confirmation. The
// card with its buttons, its form row and the confirmation are the collection pattern it shares
// with the library.
import type { FormEvent } from 'react';
import type { Bookmark } from '@shared/schemas/bookmarks';
import { CollectionCard, EditFormActions } from '@client/components/collection/collection-card';
import { toast } from '@client/components/ui/use-toast';
import { errorMessage } from '@client/lib/api-client';
import { useDeleteBookmarkMutation, useUpdateBookmarkMutation } from '../api/bookmark-mutations';
import { BOOKMARKS_STRINGS, bookmarkPath, formatBookmarkDate } from '../strings';
import { BookmarkFields, useBookmarkDraft } from './bookmark-fields';

const CARD_LAYOUT = {
  card: 'p-5',
  article: 'flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between',
  body: 'grid min-w-0 gap-1',
  actions: 'flex shrink-0 gap-2',
};

function EditForm({ bookmark, onDone }: { bookmark: Bookmark; onDone: () => void }) {
  const update = useUpdateBookmarkMutation();
  const draft = useBookmarkDraft({ title: bookmark.title, description: bookmark.description ?? '' });

  const handleSave = async (event: FormEvent) => {
    event.preventDefault();
    const values = draft.validate();
    if (!values) return;
    try {
      await update.mutateAsync({ id: bookmark.id, ...values });
      toast({ title: BOOKMARKS_STRINGS.successTitle, description: BOOKMARKS_STRINGS.updated });
      onDone();
    } catch (error) {
      toast({
        title: BOOKMARKS_STRINGS.errorTitle,
        description: errorMessage(error, BOOKMARKS_STRINGS.updateFailed),
        variant: 'destructive',
      });
    }
  };

  return (
    <form
      noValidate
      onSubmit={(event) => void handleSave(event)}
      className="grid gap-4"
      aria-label={BOOKMARKS_STRINGS.editLabel(bookmark.title)}
    >
      <BookmarkFields draft={draft} descriptionLabel={BOOKMARKS_STRINGS.descriptionLabel} autoFocus />
      <EditFormActions pending={update.isPending} onCancel={onDone} strings={BOOKMARKS_STRINGS} />
    </form>
  );
}

export function BookmarkCard({ bookmark }: { bookmark: Bookmark }) {
  const remove = useDeleteBookmarkMutation();

  return (
    <CollectionCard
      layout={CARD_LAYOUT}
      title={bookmark.title}
      to={bookmarkPath(bookmark)}
      details={
        <>
          {bookmark.description ? (
            <p className="text-sm break-words whitespace-pre-line text-muted-foreground">{bookmark.description}</p>
          ) : null}
          <p className="text-xs text-muted-foreground">
            <time dateTime={bookmark.createdAt}>
              {BOOKMARKS_STRINGS.savedOn(formatBookmarkDate(bookmark.createdAt))}
            </time>
          </p>
        </>
      }
      edit={{
        label: BOOKMARKS_STRINGS.edit,
        ariaLabel: BOOKMARKS_STRINGS.editLabel(bookmark.title),
        form: (done) => <EditForm bookmark={bookmark} onDone={done} />,
      }}
      remove={{
        ariaLabel: BOOKMARKS_STRINGS.deleteLabel(bookmark.title),
        text: BOOKMARKS_STRINGS.deleteText(bookmark.title),
        strings: BOOKMARKS_STRINGS,
        onDelete: () => remove.mutateAsync(bookmark.id),
        pending: remove.isPending,
      }}
    />
  );
}
