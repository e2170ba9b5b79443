// One bookmark on the Bookmarks page: its title links to the story at the bookmarked message; it
// can be edited in place (title, description; Save/Cancel) or deleted after a confirmation. The
// card, its form row and the confirmation are the collection pattern it shares with the library.
import { useState, type FormEvent } from 'react';
import { Pencil, Trash2 } from 'lucide-react';
import type { Bookmark } from '@shared/schemas/bookmarks';
import { CollectionCard, EditFormActions } from '@client/components/collection/collection-card';
import { ConfirmDeleteDialog } from '@client/components/collection/confirm-delete-dialog';
import { Button } from '@client/components/ui/button';
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
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const remove = useDeleteBookmarkMutation();

  return (
    <CollectionCard
      layout={CARD_LAYOUT}
      title={bookmark.title}
      to={bookmarkPath(bookmark)}
      editForm={editing ? <EditForm bookmark={bookmark} onDone={() => setEditing(false)} /> : null}
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
      actions={
        <>
          <Button
            variant="outline"
            size="sm"
            onClick={() => setEditing(true)}
            aria-label={BOOKMARKS_STRINGS.editLabel(bookmark.title)}
          >
            <Pencil aria-hidden="true" />
            {BOOKMARKS_STRINGS.edit}
          </Button>
          <Button
            variant="outline"
            size="sm"
            onClick={() => setConfirming(true)}
            aria-label={BOOKMARKS_STRINGS.deleteLabel(bookmark.title)}
          >
            <Trash2 aria-hidden="true" />
            {BOOKMARKS_STRINGS.delete}
          </Button>
        </>
      }
      deleteDialog={
        <ConfirmDeleteDialog
          open={confirming}
          onOpenChange={setConfirming}
          text={BOOKMARKS_STRINGS.deleteText(bookmark.title)}
          strings={BOOKMARKS_STRINGS}
          onDelete={() => remove.mutateAsync(bookmark.id)}
          pending={remove.isPending}
        />
      }
    />
  );
}
