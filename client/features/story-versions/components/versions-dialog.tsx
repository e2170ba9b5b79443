// The 'Versions' dialog of a message: every version, oldest first, read fresh on each opening,
// each with how it came to be (Original, Alternative, Edited, New action) and its words in a
// scrolling box; the one the story shows is marked 'Shown', any other can be shown instead
// ('Show this version'), after which the dialog closes on the story showing it.
import { useId, useState } from 'react';
import { Loader2 } from 'lucide-react';
import type { MessageVersion } from '@shared/schemas/story-versions';
import { Alert, AlertDescription } from '@client/components/ui/alert';
import { Badge } from '@client/components/ui/badge';
import { Button } from '@client/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@client/components/ui/dialog';
import { Spinner } from '@client/components/ui/spinner';
import { errorMessage } from '@client/lib/api-client';
import { useMessageVersions } from '../api/get-message-versions';
import { STORY_VERSIONS_STRINGS as S } from '../strings';
import { returnFocusTo } from '@client/lib/return-focus';

export interface VersionsDialogProps {
  storyId: number;
  messageId: number;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Shows that version in the story; answers the server's refusal, or null once it is shown. */
  onSelect: (version: number) => Promise<string | null>;
  /** Where focus goes when the dialog closes (the button that opened it). */
  returnFocus?: HTMLElement | null;
}

function formatDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : date.toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });
}

function VersionItem({
  entry,
  shown,
  busy,
  disabled,
  onShow,
}: {
  entry: MessageVersion;
  shown: boolean;
  busy: boolean;
  disabled: boolean;
  onShow: () => void;
}) {
  const headingId = `${useId()}-heading`;
  return (
    <li
      aria-labelledby={headingId}
      className={
        shown ? 'grid gap-2 rounded-lg border border-primary/50 bg-primary/5 p-3' : 'grid gap-2 rounded-lg border p-3'
      }
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="flex flex-wrap items-baseline gap-x-2 gap-y-0.5">
          <h3 id={headingId} className="text-sm font-semibold">
            {S.versionLabel(entry.version)}
            <span className="font-normal text-muted-foreground"> · {S.kinds[entry.kind]}</span>
          </h3>
          <span className="text-xs text-muted-foreground">{formatDate(entry.createdAt)}</span>
        </div>
        {shown ? (
          <Badge>{S.shown}</Badge>
        ) : (
          <Button variant="outline" size="sm" className="h-8" disabled={disabled} onClick={onShow}>
            {busy ? <Loader2 className="animate-spin motion-reduce:animate-none" aria-hidden="true" /> : null}
            {S.showThisVersion}
          </Button>
        )}
      </div>
      <div
        tabIndex={0}
        className="max-h-40 overflow-y-auto rounded-md bg-muted/40 px-3 py-2 font-serif text-sm leading-relaxed break-words whitespace-pre-wrap focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
      >
        {entry.content}
      </div>
    </li>
  );
}

export function VersionsDialog({ storyId, messageId, open, onOpenChange, onSelect, returnFocus }: VersionsDialogProps) {
  const versions = useMessageVersions(storyId, messageId, open);
  const [pending, setPending] = useState<number | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const ready = versions.isSuccess && !versions.isFetching;

  const show = async (version: number) => {
    setPending(version);
    setFailure(null);
    const refused = await onSelect(version);
    setPending(null);
    if (refused === null) onOpenChange(false);
    else setFailure(refused);
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) setFailure(null);
        onOpenChange(next);
      }}
    >
      <DialogContent className="max-w-xl" onCloseAutoFocus={returnFocusTo(returnFocus)}>
        <DialogHeader>
          <DialogTitle>{S.versionsTitle}</DialogTitle>
          <DialogDescription>{S.versionsDescription}</DialogDescription>
        </DialogHeader>
        {failure ? (
          <Alert variant="destructive">
            <AlertDescription>{failure}</AlertDescription>
          </Alert>
        ) : null}
        {versions.isError ? (
          <Alert variant="destructive">
            <AlertDescription>{errorMessage(versions.error, S.versionsFailed)}</AlertDescription>
          </Alert>
        ) : ready ? (
          <ol className="grid gap-3" aria-label={S.versionsTitle}>
            {versions.data.versions.map((entry) => (
              <VersionItem
                key={entry.version}
                entry={entry}
                shown={entry.version === versions.data.version}
                busy={pending === entry.version}
                disabled={pending !== null}
                onShow={() => void show(entry.version)}
              />
            ))}
          </ol>
        ) : (
          <div className="flex justify-center py-8">
            <Spinner label={S.versionsLoading} />
          </div>
        )}
      </DialogContent>
    </Dialog>
  );
}
