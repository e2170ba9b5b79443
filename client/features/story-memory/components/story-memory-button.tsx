// The story page's 'Story Memory' button and panel: the pinned premise, the memory of folded turns
// and the author's note (the player's direction, sent with every turn near the end), each editable;
// Save counts from the next turn.
// A memory of several parts (each fold appends one) lists them, read-only, above its text; the text
// saved unedited keeps the parts, edited it becomes one.
// Below the form, the Story Bible (its code loads when the panel first opens). The panel loads
// fresh on every opening, and cannot be opened while the narrator is writing.
import { lazy, Suspense, useState, type FormEvent } from 'react';
import { Brain } from 'lucide-react';
import { STORY_PREMISE_MAX_LENGTH } from '@shared/constants';
import {
  STORY_NOTES_MAX_LENGTH,
  STORY_SUMMARY_MAX_LENGTH,
  storyMemoryBodySchema,
  type StoryMemory,
} from '@shared/schemas/story-memory';
import { Alert, AlertDescription } from '@client/components/ui/alert';
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
import { Spinner } from '@client/components/ui/spinner';
import { Textarea } from '@client/components/ui/textarea';
import { Tooltip, TooltipContent, TooltipTrigger } from '@client/components/ui/tooltip';
import { toast } from '@client/components/ui/use-toast';
import { errorMessage } from '@client/lib/api-client';
import { useSaveStoryMemoryMutation, useStoryMemory } from '../api/story-memory';
import { STORY_BIBLE_STRINGS, STORY_MEMORY_STRINGS as S } from '../strings';

const StoryBible = lazy(() => import('./story-bible').then((m) => ({ default: m.StoryBible })));

type Field = Exclude<keyof StoryMemory, 'chunks'>;

/** The memory's parts, read-only, oldest first: shown when there is more than one. */
function MemoryChunks({ chunks }: { chunks: string[] }) {
  return (
    <details className="rounded-md border px-3 py-2 text-sm">
      <summary className="cursor-pointer font-medium">{S.chunksLabel(chunks.length)}</summary>
      <p className="text-muted-foreground mt-2">{S.chunksHint}</p>
      <ol className="mt-2 grid gap-2" aria-label={S.chunksLabel(chunks.length)}>
        {chunks.map((chunk, i) => (
          <li key={i} aria-label={S.chunkLabel(i + 1, chunks.length)} className="whitespace-pre-wrap">
            {chunk}
          </li>
        ))}
      </ol>
    </details>
  );
}

function MemoryForm({ storyId, loaded, onDone }: { storyId: number; loaded: StoryMemory; onDone: () => void }) {
  const save = useSaveStoryMemoryMutation(storyId);
  const [draft, setDraft] = useState<StoryMemory>(loaded);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const set = (field: Field) => (event: { target: { value: string } }) => {
    setDraft((current) => ({ ...current, [field]: event.target.value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const handleSave = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = storyMemoryBodySchema.safeParse(draft);
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((issue) => [issue.path[0], issue.message])));
      return;
    }
    try {
      await save.mutateAsync(parsed.data);
      toast({ title: S.successTitle, description: S.saved });
      onDone();
    } catch (error) {
      toast({ title: S.errorTitle, description: errorMessage(error, S.saveFailed), variant: 'destructive' });
    }
  };

  return (
    <form noValidate onSubmit={(event) => void handleSave(event)} className="grid gap-4" aria-label={S.title}>
      <FormField label={S.premiseLabel} hint={S.premiseHint} error={errors.premise}>
        {(control) => (
          <Textarea
            {...control}
            value={draft.premise}
            maxLength={STORY_PREMISE_MAX_LENGTH}
            rows={3}
            onChange={set('premise')}
            disabled={save.isPending}
          />
        )}
      </FormField>
      {(loaded.chunks?.length ?? 0) > 1 ? <MemoryChunks chunks={loaded.chunks ?? []} /> : null}
      <FormField
        label={S.summaryLabel}
        hint={draft.summary || loaded.summary ? S.summaryHint : S.summaryEmpty}
        error={errors.summary}
      >
        {(control) => (
          <Textarea
            {...control}
            value={draft.summary}
            maxLength={STORY_SUMMARY_MAX_LENGTH}
            rows={4}
            onChange={set('summary')}
            disabled={save.isPending}
          />
        )}
      </FormField>
      <FormField
        label={S.notesLabel}
        hint={
          <span className="flex justify-between gap-2">
            <span>{S.notesHint}</span>
            <span aria-hidden="true" className="shrink-0 whitespace-nowrap tabular-nums">
              {S.notesCount(draft.notes.length)}
            </span>
          </span>
        }
        error={errors.notes}
      >
        {(control) => (
          <Textarea
            {...control}
            value={draft.notes}
            maxLength={STORY_NOTES_MAX_LENGTH}
            rows={3}
            placeholder={S.notesPlaceholder}
            onChange={set('notes')}
            disabled={save.isPending}
          />
        )}
      </FormField>
      <DialogFooter>
        <Button variant="outline" onClick={onDone} disabled={save.isPending}>
          {S.cancel}
        </Button>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? S.saving : S.save}
        </Button>
      </DialogFooter>
    </form>
  );
}

function MemoryDialog({
  storyId,
  open,
  onOpenChange,
}: {
  storyId: number;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const memory = useStoryMemory(storyId, open);
  // The form starts from the read this opening made (keyed by it), never from an older copy.
  const ready = memory.isSuccess && !memory.isFetching;

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-h-[90dvh] max-w-lg overflow-y-auto">
        <DialogHeader>
          <DialogTitle>{S.title}</DialogTitle>
          <DialogDescription>{S.description}</DialogDescription>
        </DialogHeader>
        {memory.isError ? (
          <Alert variant="destructive">
            <AlertDescription>{errorMessage(memory.error, S.loadFailed)}</AlertDescription>
          </Alert>
        ) : ready ? (
          <MemoryForm
            key={memory.dataUpdatedAt}
            storyId={storyId}
            loaded={memory.data}
            onDone={() => onOpenChange(false)}
          />
        ) : (
          <div className="flex justify-center py-8">
            <Spinner label={S.loading} />
          </div>
        )}
        <Suspense
          fallback={
            <div className="flex justify-center py-6">
              <Spinner label={STORY_BIBLE_STRINGS.loading} />
            </div>
          }
        >
          <StoryBible storyId={storyId} />
        </Suspense>
      </DialogContent>
    </Dialog>
  );
}

export function StoryMemoryButton({ storyId, disabled = false }: { storyId: number | null; disabled?: boolean }) {
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
            aria-label={S.tooltip}
          >
            <Brain aria-hidden="true" />
          </Button>
        </TooltipTrigger>
        <TooltipContent>{S.tooltip}</TooltipContent>
      </Tooltip>
      {storyId !== null ? <MemoryDialog storyId={storyId} open={open} onOpenChange={setOpen} /> : null}
    </>
  );
}
