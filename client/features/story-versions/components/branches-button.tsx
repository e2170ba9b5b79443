// The story page's 'Branches' button and dialog: the story this one was branched from (a link,
// while it is still the player's) and the stories branched from this one (links, newest first),
// or 'No branches yet.'. Read fresh on each opening; following a link closes the dialog.
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { GitBranch } from 'lucide-react';
import type { StoryFamily } from '@shared/schemas/story-versions';
import { Alert, AlertDescription } from '@client/components/ui/alert';
import { Button } from '@client/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@client/components/ui/dialog';
import { Spinner } from '@client/components/ui/spinner';
import { Tooltip, TooltipContent, TooltipTrigger } from '@client/components/ui/tooltip';
import { errorMessage } from '@client/lib/api-client';
import { useBranches } from '../api/get-branches';
import { STORY_VERSIONS_STRINGS as S } from '../strings';

const linkClassName =
  'font-medium text-primary underline-offset-4 hover:underline focus-visible:rounded-sm focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none';

function formatDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : date.toLocaleDateString('en-US', { dateStyle: 'medium' });
}

function Family({ family, onFollow }: { family: StoryFamily; onFollow: () => void }) {
  const originId = useId();
  const listId = useId();
  return (
    <div className="grid gap-5">
      {family.origin ? (
        <section aria-labelledby={originId} className="grid gap-1">
          <h3 id={originId} className="text-xs font-semibold tracking-wide text-muted-foreground uppercase">
            {S.branchedFrom}
          </h3>
          <Link to={`/story/${family.origin.storyId}`} onClick={onFollow} className={linkClassName}>
            {family.origin.title}
          </Link>
        </section>
      ) : null}
      <section aria-labelledby={listId} className="grid gap-2">
        <h3 id={listId} className="text-xs font-semibold tracking-wide text-muted-foreground uppercase">
          {S.branchList}
        </h3>
        {family.branches.length === 0 ? (
          <p className="text-sm text-muted-foreground">{S.noBranches}</p>
        ) : (
          <ul className="grid gap-1.5">
            {family.branches.map((branch) => (
              <li
                key={branch.storyId}
                className="flex items-baseline justify-between gap-3 rounded-md border px-3 py-2"
              >
                <Link
                  to={`/story/${branch.storyId}`}
                  onClick={onFollow}
                  className={`${linkClassName} min-w-0 break-words`}
                >
                  {branch.title}
                </Link>
                <span className="shrink-0 text-xs text-muted-foreground">{formatDate(branch.createdAt)}</span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

function BranchesDialog({
  storyId,
  open,
  onOpenChange,
}: {
  storyId: number;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const family = useBranches(storyId, open);
  const ready = family.isSuccess && !family.isFetching;
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-md">
        <DialogHeader>
          <DialogTitle>{S.branches}</DialogTitle>
          <DialogDescription>{S.branchesDescription}</DialogDescription>
        </DialogHeader>
        {family.isError ? (
          <Alert variant="destructive">
            <AlertDescription>{errorMessage(family.error, S.branchesFailed)}</AlertDescription>
          </Alert>
        ) : ready ? (
          <Family family={family.data} onFollow={() => onOpenChange(false)} />
        ) : (
          <div className="flex justify-center py-6">
            <Spinner label={S.branchesLoading} />
          </div>
        )}
      </DialogContent>
    </Dialog>
  );
}

export function BranchesButton({ storyId, disabled = false }: { storyId: number | null; disabled?: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Tooltip>
        <TooltipTrigger asChild>
          <Button
            variant="outline"
            size="icon"
            onClick={() => setOpen(true)}
            disabled={disabled || storyId === null}
            aria-label={S.branches}
          >
            <GitBranch aria-hidden="true" />
          </Button>
        </TooltipTrigger>
        <TooltipContent>{S.branches}</TooltipContent>
      </Tooltip>
      {storyId !== null ? <BranchesDialog storyId={storyId} open={open} onOpenChange={setOpen} /> : null}
    </>
  );
}
