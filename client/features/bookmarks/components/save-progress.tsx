// The story page's bookmark button and its 'Save Progress' dialog. A
// visitor, or a session that ended (401), is shown 'Authentication Required' instead; once logged
// in, the save dialog comes back with what was typed.
import { useState, type FormEvent } from 'react';
import { Bookmark as BookmarkIcon } from 'lucide-react';
import { Button } from '@client/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@client/components/ui/dialog';
import { Tooltip, TooltipContent, TooltipTrigger } from '@client/components/ui/tooltip';
import { toast } from '@client/components/ui/use-toast';
import { errorMessage, isUnauthorizedError } from '@client/lib/api-client';
import { AuthDialog, useSession } from '@client/features/auth';
import { useCreateBookmarkMutation } from '../api/bookmark-mutations';
import { BOOKMARKS_STRINGS } from '../strings';
import { BookmarkFields, useBookmarkDraft } from './bookmark-fields';

export interface SaveProgressProps {
  storyId: number | null;
  lastMessageId: number | null;
  /** Spec: disabled without a story id or messages. */
  disabled: boolean;
}

export function SaveProgressButton({ storyId, lastMessageId, disabled }: SaveProgressProps) {
  const { isLoggedIn } = useSession();
  const create = useCreateBookmarkMutation();
  const [dialogOpen, setDialogOpen] = useState(false);
  const [authOpen, setAuthOpen] = useState(false);
  const draft = useBookmarkDraft();

  const askToLogIn = () => {
    setDialogOpen(false);
    setAuthOpen(true);
  };

  const handleOpen = () => {
    if (isLoggedIn) setDialogOpen(true);
    else setAuthOpen(true);
  };

  const handleSave = async (event: FormEvent) => {
    event.preventDefault();
    const values = draft.validate();
    if (!values) return;
    if (!isLoggedIn) return askToLogIn();
    if (storyId === null || lastMessageId === null) return;
    try {
      await create.mutateAsync({ storyId, lastMessageId, ...values });
      toast({ title: BOOKMARKS_STRINGS.successTitle, description: BOOKMARKS_STRINGS.saveSucceeded });
      setDialogOpen(false);
      draft.reset();
    } catch (error) {
      if (isUnauthorizedError(error)) {
        toast({
          title: BOOKMARKS_STRINGS.errorTitle,
          description: BOOKMARKS_STRINGS.loginToSave,
          variant: 'destructive',
        });
        askToLogIn();
        return;
      }
      toast({
        title: BOOKMARKS_STRINGS.errorTitle,
        description: errorMessage(error, BOOKMARKS_STRINGS.saveFailed),
        variant: 'destructive',
      });
    }
  };

  return (
    <>
      <Tooltip>
        <TooltipTrigger asChild>
          <Button
            variant="outline"
            size="icon"
            onClick={handleOpen}
            disabled={disabled}
            aria-label={BOOKMARKS_STRINGS.bookmarkTooltip}
          >
            <BookmarkIcon aria-hidden="true" />
          </Button>
        </TooltipTrigger>
        <TooltipContent>{BOOKMARKS_STRINGS.bookmarkTooltip}</TooltipContent>
      </Tooltip>

      <Dialog open={dialogOpen} onOpenChange={(open) => !create.isPending && setDialogOpen(open)}>
        <DialogContent className="max-w-md">
          <DialogHeader>
            <DialogTitle>{BOOKMARKS_STRINGS.saveDialogTitle}</DialogTitle>
            <DialogDescription>{BOOKMARKS_STRINGS.saveDialogText}</DialogDescription>
          </DialogHeader>
          <form
            noValidate
            onSubmit={(event) => void handleSave(event)}
            className="grid gap-4"
            aria-label={BOOKMARKS_STRINGS.saveDialogTitle}
          >
            <BookmarkFields
              draft={draft}
              descriptionLabel={BOOKMARKS_STRINGS.descriptionOptional}
              titlePlaceholder={BOOKMARKS_STRINGS.titlePlaceholder}
              descriptionPlaceholder={BOOKMARKS_STRINGS.descriptionPlaceholder}
            />
            <DialogFooter>
              <Button variant="outline" onClick={() => setDialogOpen(false)} disabled={create.isPending}>
                {BOOKMARKS_STRINGS.cancel}
              </Button>
              <Button type="submit" disabled={create.isPending}>
                {create.isPending ? BOOKMARKS_STRINGS.saving : BOOKMARKS_STRINGS.save}
              </Button>
            </DialogFooter>
          </form>
        </DialogContent>
      </Dialog>

      <AuthDialog
        open={authOpen}
        onOpenChange={setAuthOpen}
        title={BOOKMARKS_STRINGS.authTitle}
        description={BOOKMARKS_STRINGS.authText}
        onAuthenticated={() => setDialogOpen(true)}
      />
    </>
  );
}
