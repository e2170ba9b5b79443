// One bookmark on the Bookmarks page: its title links to the story at the bookmarked message; it
// can be edited in place (title, description; Save/Cancel) or deleted after a confirmation.
import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { BookOpen, Pencil, Trash2 } from 'lucide-react';
import type { Bookmark } from '@shared/schemas/bookmarks';
import { Button } from '@client/components/ui/button';
import { Card } from '@client/components/ui/card';
import { toast } from '@client/components/ui/use-toast';
import { errorMessage } from '@client/lib/api-client';
import { useUpdateBookmarkMutation } from '../api/bookmark-mutations';
import { BOOKMARKS_STRINGS, bookmarkPath, formatBookmarkDate } from '../strings';
import { BookmarkFields, useBookmarkDraft } from './bookmark-fields';
import { DeleteBookmarkDialog } from './delete-bookmark-dialog';

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
      <div className="flex justify-end gap-2">
        <Button variant="outline" onClick={onDone} disabled={update.isPending}>
          {BOOKMARKS_STRINGS.cancel}
        </Button>
        <Button type="submit" disabled={update.isPending}>
          {update.isPending ? BOOKMARKS_STRINGS.saving : BOOKMARKS_STRINGS.save}
        </Button>
      </div>
    </form>
  );
}

export function BookmarkCard({ bookmark }: { bookmark: Bookmark }) {
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const titleId = useId();

  return (
    <Card className="p-5">
      {editing ? (
        <EditForm bookmark={bookmark} onDone={() => setEditing(false)} />
      ) : (
        <article
          aria-labelledby={titleId}
          className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between"
        >
          <div className="grid min-w-0 gap-1">
            <h2 id={titleId} className="text-lg font-semibold break-words">
              <Link
                to={bookmarkPath(bookmark)}
                className="inline-flex items-center gap-2 underline-offset-4 hover:underline focus-visible:underline"
              >
                <BookOpen className="size-4 shrink-0 text-gold" aria-hidden="true" />
                {bookmark.title}
              </Link>
            </h2>
            {bookmark.description ? (
              <p className="text-sm break-words whitespace-pre-line text-muted-foreground">{bookmark.description}</p>
            ) : null}
            <p className="text-xs text-muted-foreground">
              <time dateTime={bookmark.createdAt}>
                {BOOKMARKS_STRINGS.savedOn(formatBookmarkDate(bookmark.createdAt))}
              </time>
            </p>
          </div>
          <div className="flex shrink-0 gap-2">
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
          </div>
        </article>
      )}
      <DeleteBookmarkDialog bookmark={bookmark} open={confirming} onOpenChange={setConfirming} />
    </Card>
  );
}
