// 'Erase from here?': the confirmation before a message and everything after it leave the story
// (set aside on the server: Redo, or the toast's Undo, brings them back). Cancel keeps the story
// as it is; while the erase is on its way the dialog stays, then closes.
import { Button } from '@client/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@client/components/ui/dialog';
import { STORY_VERSIONS_STRINGS as S } from '../strings';
import { returnFocusTo } from '@client/lib/return-focus';

export interface EraseDialogProps {
  open: boolean;
  pending: boolean;
  onOpenChange: (open: boolean) => void;
  onConfirm: () => void;
  /** Where focus goes when the dialog closes without erasing (the button that opened it). */
  returnFocus?: HTMLElement | null;
}

export function EraseDialog({ open, pending, onOpenChange, onConfirm, returnFocus }: EraseDialogProps) {
  return (
    <Dialog open={open} onOpenChange={(next) => !pending && onOpenChange(next)}>
      <DialogContent role="alertdialog" className="max-w-md" onCloseAutoFocus={returnFocusTo(returnFocus)}>
        <DialogHeader>
          <DialogTitle>{S.eraseTitle}</DialogTitle>
          <DialogDescription>{S.eraseText}</DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)} disabled={pending}>
            {S.cancel}
          </Button>
          <Button variant="destructive" onClick={onConfirm} disabled={pending}>
            {pending ? S.erasing : S.erase}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
