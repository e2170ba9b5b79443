// One current fact of the Story Bible: "attribute: value", the turn it came from, a Pinned badge,
// and the older values it replaced shown quietly beneath. Pin or Unpin (PATCH pinned), Edit in place
// (who or what, attribute and value, checked with the shared rules before sending, and only what
// changed sent), and Delete after a confirmation (its history goes with it).
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Pencil, Pin, PinOff, Trash2 } from 'lucide-react';
import {
  BIBLE_ATTRIBUTE_MAX_LENGTH,
  BIBLE_ENTITY_MAX_LENGTH,
  BIBLE_VALUE_MAX_LENGTH,
  bibleFactPatchSchema,
  type BibleFact,
  type BibleFactPatch,
} from '@shared/schemas/story-bible';
import { ConfirmDeleteDialog } from '@client/components/collection/confirm-delete-dialog';
import { Badge } from '@client/components/ui/badge';
import { Button } from '@client/components/ui/button';
import { FormField } from '@client/components/ui/form-field';
import { Input } from '@client/components/ui/input';
import { toast } from '@client/components/ui/use-toast';
import { errorMessage } from '@client/lib/api-client';
import { useStoryBibleMutations } from '../api/story-bible';
import { STORY_BIBLE_STRINGS as S } from '../strings';
import type { BibleEntry } from '../utils/bible-facts';

type Field = 'entity' | 'attribute' | 'value';
const FIELDS: readonly Field[] = ['entity', 'attribute', 'value'];
const MAX_LENGTH: Record<Field, number> = {
  entity: BIBLE_ENTITY_MAX_LENGTH,
  attribute: BIBLE_ATTRIBUTE_MAX_LENGTH,
  value: BIBLE_VALUE_MAX_LENGTH,
};
const LABEL: Record<Field, string> = { entity: S.entityLabel, attribute: S.attributeLabel, value: S.valueLabel };

interface FactEditFormProps {
  fact: BibleFact;
  pending: boolean;
  onSave: (patch: BibleFactPatch) => Promise<void>;
  onCancel: () => void;
}

/** The inline form: every field checked as the server would; nothing changed closes it unsent. */
function FactEditForm({ fact, pending, onSave, onCancel }: FactEditFormProps) {
  const [draft, setDraft] = useState<Record<Field, string>>({
    entity: fact.entity,
    attribute: fact.attribute,
    value: fact.value,
  });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});

  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = bibleFactPatchSchema.safeParse(draft);
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((issue) => [issue.path[0], issue.message])));
      return;
    }
    const patch: BibleFactPatch = {};
    for (const field of FIELDS) {
      const value = parsed.data[field];
      if (value !== undefined && value !== fact[field]) patch[field] = value;
    }
    if (Object.keys(patch).length === 0) onCancel();
    else await onSave(patch);
  };

  return (
    <form
      noValidate
      aria-label={S.editLabel(fact.entity, fact.attribute)}
      onSubmit={(event) => void handleSubmit(event)}
      className="grid gap-3"
    >
      <div className="grid gap-3 sm:grid-cols-2">
        {FIELDS.map((field) => (
          <FormField
            key={field}
            label={LABEL[field]}
            error={errors[field]}
            className={field === 'value' ? 'sm:col-span-2' : undefined}
          >
            {(control) => (
              <Input
                {...control}
                value={draft[field]}
                maxLength={MAX_LENGTH[field]}
                autoFocus={field === 'value'}
                disabled={pending}
                onChange={(event) => {
                  const { value } = event.target;
                  setDraft((current) => ({ ...current, [field]: value }));
                  setErrors((current) => ({ ...current, [field]: undefined }));
                }}
              />
            )}
          </FormField>
        ))}
      </div>
      <div className="flex justify-end gap-2">
        <Button variant="outline" size="sm" onClick={onCancel} disabled={pending}>
          {S.cancel}
        </Button>
        <Button type="submit" size="sm" disabled={pending}>
          {pending ? S.saving : S.save}
        </Button>
      </div>
    </form>
  );
}

export interface BibleFactRowProps {
  storyId: number;
  entry: BibleEntry;
  /** Where focus goes once this fact is deleted. */
  fallbackFocus: () => HTMLElement | null;
}

export function BibleFactRow({ storyId, entry: { fact, history }, fallbackFocus }: BibleFactRowProps) {
  const { edit, remove } = useStoryBibleMutations(storyId);
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const editButton = useRef<HTMLButtonElement>(null);
  const deleteButton = useRef<HTMLButtonElement>(null);
  const focusEdit = useRef(false);
  const deleted = useRef(false);
  const labelId = `${useId()}-fact`;

  // Closing the form gives focus back to its Edit button, which was not on the page meanwhile.
  useEffect(() => {
    if (editing || !focusEdit.current) return;
    focusEdit.current = false;
    editButton.current?.focus();
  }, [editing]);

  const closeForm = () => {
    focusEdit.current = true;
    setEditing(false);
  };
  const save = async (patch: BibleFactPatch) => {
    try {
      await edit.mutateAsync({ factId: fact.id, patch });
      toast({ title: S.successTitle, description: S.saved });
      closeForm();
    } catch (error) {
      toast({ title: S.errorTitle, description: errorMessage(error, S.saveFailed), variant: 'destructive' });
    }
  };
  const togglePin = async () => {
    try {
      await edit.mutateAsync({ factId: fact.id, patch: { pinned: !fact.pinned } });
    } catch (error) {
      toast({ title: S.errorTitle, description: errorMessage(error, S.pinFailed), variant: 'destructive' });
    }
  };

  const busy = edit.isPending || remove.isPending;
  return (
    <li aria-labelledby={labelId} data-fact-id={fact.id} className="py-2 first:pt-0 last:pb-0">
      {editing ? (
        <FactEditForm fact={fact} pending={edit.isPending} onSave={save} onCancel={closeForm} />
      ) : (
        <div className="flex items-start justify-between gap-2">
          <div className="grid min-w-0 gap-1">
            <p id={labelId} className="text-sm break-words">
              <span className="font-medium">{fact.attribute}:</span> {fact.value}
            </p>
            <div className="flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
              <span className="tabular-nums">{S.turn(fact.turn)}</span>
              {fact.pinned ? <Badge>{S.pinnedBadge}</Badge> : null}
            </div>
            {history.length > 0 ? (
              <ul
                aria-label={S.historyLabel(fact.entity, fact.attribute)}
                className="grid gap-0.5 text-xs break-words text-muted-foreground"
              >
                {history.map((older) => (
                  <li key={older.id}>{S.was(older.value, older.turn)}</li>
                ))}
              </ul>
            ) : null}
          </div>
          <div className="flex shrink-0 items-center gap-1">
            <Button
              variant="ghost"
              size="icon"
              className="size-8"
              aria-label={
                fact.pinned ? S.unpinLabel(fact.entity, fact.attribute) : S.pinLabel(fact.entity, fact.attribute)
              }
              title={fact.pinned ? S.unpin : S.pin}
              disabled={busy}
              onClick={() => void togglePin()}
            >
              {fact.pinned ? <PinOff aria-hidden="true" /> : <Pin aria-hidden="true" />}
            </Button>
            <Button
              ref={editButton}
              variant="ghost"
              size="icon"
              className="size-8"
              aria-label={S.editLabel(fact.entity, fact.attribute)}
              title={S.edit}
              disabled={busy}
              onClick={() => setEditing(true)}
            >
              <Pencil aria-hidden="true" />
            </Button>
            <Button
              ref={deleteButton}
              variant="ghost"
              size="icon"
              className="size-8"
              aria-label={S.deleteLabel(fact.entity, fact.attribute)}
              title={S.delete}
              disabled={busy}
              onClick={() => setConfirming(true)}
            >
              <Trash2 aria-hidden="true" />
            </Button>
          </div>
        </div>
      )}
      <ConfirmDeleteDialog
        open={confirming}
        onOpenChange={setConfirming}
        text={S.deleteText(fact.entity, fact.attribute, fact.value, history.length)}
        strings={S}
        onDelete={() => remove.mutateAsync(fact.id)}
        pending={remove.isPending}
        onDeleted={() => {
          deleted.current = true;
        }}
        returnFocus={() => (deleted.current ? fallbackFocus() : deleteButton.current)}
      />
    </li>
  );
}
