// The 'Delete Story' confirmation: the title quoted in the question, what goes with the story named,
// Cancel keeps it, Delete removes it and toasts the outcome. A deleted story that was the tab's
// current one is forgotten there too, so 'Current Story' no longer leads to it.
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
import type { LibraryStory } from '@shared/schemas/library';
import { forgetStory } from '@client/features/story';
import { useDeleteStoryMutation } from '../api/story-mutations';
import { LIBRARY_STRINGS } from '../strings';

export function DeleteStoryDialog({
  story,
  open,
  onOpenChange,
}: {
  story: LibraryStory;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const remove = useDeleteStoryMutation();

  const handleDelete = async () => {
    try {
      await remove.mutateAsync(story.id);
      forgetStory(story.id);
      toast({ title: LIBRARY_STRINGS.successTitle, description: LIBRARY_STRINGS.deleted });
      onOpenChange(false);
    } catch (error) {
      toast({
        title: LIBRARY_STRINGS.errorTitle,
        description: errorMessage(error, LIBRARY_STRINGS.deleteFailed),
        variant: 'destructive',
      });
    }
  };

  return (
    <Dialog open={open} onOpenChange={(next) => !remove.isPending && onOpenChange(next)}>
      <DialogContent role="alertdialog" className="max-w-md">
        <DialogHeader>
          <DialogTitle>{LIBRARY_STRINGS.deleteTitle}</DialogTitle>
          <DialogDescription>{LIBRARY_STRINGS.deleteText(story.title)}</DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)} disabled={remove.isPending}>
            {LIBRARY_STRINGS.cancel}
          </Button>
          <Button variant="destructive" onClick={() => void handleDelete()} disabled={remove.isPending}>
            {remove.isPending ? LIBRARY_STRINGS.deleting : LIBRARY_STRINGS.delete}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
