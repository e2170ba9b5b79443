// The confirmation before deleting one item of a player's collection (a story, a bookmark): the
// question with the item's title, Cancel keeps it, Delete removes it and toasts the outcome in the
// caller's words. Shared by the library and the bookmarks (one pattern, their own strings).
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
import { returnFocusTo } from '@client/lib/return-focus';

export interface ConfirmDeleteStrings {
  deleteTitle: string;
  cancel: string;
  delete: string;
  deleting: string;
  successTitle: string;
  deleted: string;
  errorTitle: string;
  deleteFailed: string;
}

export interface ConfirmDeleteDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The question, with the item's title. */
  text: string;
  strings: ConfirmDeleteStrings;
  /** Deletes the item (the caller's mutation); rejects with the server's refusal. */
  onDelete: () => Promise<unknown>;
  pending: boolean;
  /** After a deletion, before the toast (e.g. forget what the item was in the tab). */
  onDeleted?: () => void;
  /** Where focus goes when the dialog closes, for a dialog opened without a trigger inside another one. */
  returnFocus?: () => HTMLElement | null;
}

export function ConfirmDeleteDialog({
  open,
  onOpenChange,
  text,
  strings,
  onDelete,
  pending,
  onDeleted,
  returnFocus,
}: ConfirmDeleteDialogProps) {
  const handleDelete = async () => {
    try {
      await onDelete();
      onDeleted?.();
      toast({ title: strings.successTitle, description: strings.deleted });
      onOpenChange(false);
    } catch (error) {
      toast({
        title: strings.errorTitle,
        description: errorMessage(error, strings.deleteFailed),
        variant: 'destructive',
      });
    }
  };

  return (
    <Dialog open={open} onOpenChange={(next) => !pending && onOpenChange(next)}>
      <DialogContent role="alertdialog" className="max-w-md" onCloseAutoFocus={returnFocusTo(() => returnFocus?.())}>
        <DialogHeader>
          <DialogTitle>{strings.deleteTitle}</DialogTitle>
          <DialogDescription>{text}</DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)} disabled={pending}>
            {strings.cancel}
          </Button>
          <Button variant="destructive" onClick={() => void handleDelete()} disabled={pending}>
            {pending ? strings.deleting : strings.delete}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
