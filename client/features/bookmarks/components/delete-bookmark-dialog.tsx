// The 'Delete Bookmark' confirmation (spec section 2): the title quoted in the question, Cancel
// keeps it, Delete removes it and toasts the outcome.
import { Button } from '@client/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@client/components/ui/dialog';
import { toast } from '@client/components/ui/use-toast';
import { errorMessage } from '@client/lib/api-client';
import type { Bookmark } from '@shared/schemas/bookmarks';
import { useDeleteBookmarkMutation } from '../api/bookmark-mutations';
import { BOOKMARKS_STRINGS } from '../strings';

export function DeleteBookmarkDialog({
  bookmark,
  open,
  onOpenChange,
}: {
  bookmark: Bookmark;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const remove = useDeleteBookmarkMutation();

  const handleDelete = async () => {
    try {
      await remove.mutateAsync(bookmark.id);
      toast({ title: BOOKMARKS_STRINGS.successTitle, description: BOOKMARKS_STRINGS.deleted });
      onOpenChange(false);
    } catch (error) {
      toast({
        title: BOOKMARKS_STRINGS.errorTitle,
        description: errorMessage(error, BOOKMARKS_STRINGS.deleteFailed),
        variant: 'destructive',
      });
    }
  };

  return (
    <Dialog open={open} onOpenChange={(next) => !remove.isPending && onOpenChange(next)}>
      <DialogContent role="alertdialog" className="max-w-md">
        <DialogHeader>
          <DialogTitle>{BOOKMARKS_STRINGS.deleteTitle}</DialogTitle>
          <DialogDescription>{BOOKMARKS_STRINGS.deleteText(bookmark.title)}</DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)} disabled={remove.isPending}>
            {BOOKMARKS_STRINGS.cancel}
          </Button>
          <Button variant="destructive" onClick={() => void handleDelete()} disabled={remove.isPending}>
            {remove.isPending ? BOOKMARKS_STRINGS.deleting : BOOKMARKS_STRINGS.delete}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
