// 'Name your story': the title to share under, prefilled while the suggestion
// loads, required non-blank; the submit button turns into 'Creating link…' while the link is made.
import type { FormEvent } from 'react';
import { LoaderCircle } from 'lucide-react';
import { SHARE_TITLE_MAX_LENGTH } from '@shared/constants';
import { Button } from '@client/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@client/components/ui/dialog';
import { FormField } from '@client/components/ui/form-field';
import { Input } from '@client/components/ui/input';
import type { ShareFlow } from '../hooks/use-share-flow';
import { SHARING_STRINGS } from '../strings';

export function NameStoryDialog({ flow }: { flow: ShareFlow }) {
  const creating = flow.phase === 'creating';
  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    void flow.submit();
  };
  return (
    <Dialog open={flow.phase === 'naming' || creating} onOpenChange={(open) => !open && !creating && flow.close()}>
      <DialogContent className="max-w-md">
        <DialogHeader>
          <DialogTitle>{SHARING_STRINGS.nameDialogTitle}</DialogTitle>
          <DialogDescription>{SHARING_STRINGS.nameDialogText}</DialogDescription>
        </DialogHeader>
        <form noValidate onSubmit={handleSubmit} className="grid gap-4" aria-label={SHARING_STRINGS.nameDialogTitle}>
          <FormField label={SHARING_STRINGS.titleLabel} error={flow.titleError}>
            {(control) => (
              <Input
                {...control}
                value={flow.title}
                maxLength={SHARE_TITLE_MAX_LENGTH}
                placeholder={flow.suggesting ? SHARING_STRINGS.suggestingTitle : SHARING_STRINGS.titlePlaceholder}
                disabled={creating}
                onChange={(event) => flow.setTitle(event.target.value)}
              />
            )}
          </FormField>
          <DialogFooter>
            <Button variant="outline" onClick={flow.close} disabled={creating}>
              {SHARING_STRINGS.cancel}
            </Button>
            <Button type="submit" disabled={creating}>
              {creating ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : null}
              {creating ? SHARING_STRINGS.creatingLink : SHARING_STRINGS.createLink}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
