// The 'Add a card' and 'Edit {name}' dialog: every field of a card (react-hook-form checked by the
// shared storyCardBodySchema), keys as chips, the content's character count, switches and numbers with
// one-line help. Add POSTs the card; Edit PATCHes only what changed. The server's refusals (a bad
// regular expression, a card that would never be sent) show in the form, under their field when named.
import { useEffect } from 'react';
import { Controller, useForm, useWatch, type FieldErrors } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  CARD_CONTENT_MAX_LENGTH,
  CARD_NAME_MAX_LENGTH,
  CARD_SECONDARY_LOGIC,
  storyCardBodySchema,
  storyCardFieldsSchema,
  type StoryCard,
  type StoryCardFields,
  type StoryCardInput,
  type StoryCardPatch,
} from '@shared/schemas/story-cards';
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
import { Input } from '@client/components/ui/input';
import { Select } from '@client/components/ui/select';
import { Textarea } from '@client/components/ui/textarea';
import { toast } from '@client/components/ui/use-toast';
import { errorMessage, isApiRequestError } from '@client/lib/api-client';
import { useStoryCardMutations } from '../api/story-card-mutations';
import { STORY_CARDS_STRINGS as S } from '../strings';
import { KeysInput } from './keys-input';
import { SwitchField } from './switch-field';
import { returnFocusTo } from '@client/lib/return-focus';

type FieldName = keyof StoryCardFields;
type NumberFieldName = keyof typeof S.limits;

const FIELD_NAMES = Object.keys(storyCardFieldsSchema.shape) as FieldName[];

/** A new card's fields: the schema's defaults. */
const NEW_CARD: StoryCardFields = storyCardFieldsSchema.parse({ name: 'x', content: 'x' });

function formValues(card: StoryCard | null): StoryCardFields {
  if (!card) return { ...NEW_CARD, name: '', content: '' };
  return Object.fromEntries(FIELD_NAMES.map((name) => [name, card[name]])) as StoryCardFields;
}

/** What an edit changed, field by field (keys compared in order). */
export function changedFields(card: StoryCard, values: StoryCardFields): StoryCardPatch {
  const patch: Record<string, unknown> = {};
  for (const name of FIELD_NAMES) {
    if (JSON.stringify(card[name]) !== JSON.stringify(values[name])) patch[name] = values[name];
  }
  return patch as StoryCardPatch;
}

/** The field a server detail names ('keys.0' → keys), if it is one of the form's. */
function fieldOf(path: string): FieldName | null {
  const head = path.replace(/^body[./]?/, '').split(/[./]/)[0];
  return (FIELD_NAMES as string[]).includes(head) ? (head as FieldName) : null;
}

/** A list's message: its own, or its first key's. */
function listError(error: FieldErrors<StoryCardInput>['keys']): string | undefined {
  if (!error) return undefined;
  if (error.message) return error.message;
  if (error.root?.message) return error.root.message;
  return Object.values(error as Record<string, { message?: string } | undefined>).find((entry) => entry?.message)
    ?.message;
}

interface CardFormProps {
  storyId: number;
  card: StoryCard | null;
  onDone: () => void;
}

function CardForm({ storyId, card, onDone }: CardFormProps) {
  const { add, edit } = useStoryCardMutations(storyId);
  const {
    register,
    control,
    handleSubmit,
    setError,
    setFocus,
    formState: { errors, isSubmitting },
  } = useForm<StoryCardInput, unknown, StoryCardFields>({
    resolver: zodResolver(storyCardBodySchema),
    defaultValues: formValues(card),
  });
  useEffect(() => setFocus('name'), [setFocus]);

  const submit = handleSubmit(async (values) => {
    try {
      if (card) {
        const patch = changedFields(card, values);
        if (Object.keys(patch).length > 0) await edit.mutateAsync({ cardId: card.id, patch });
      } else {
        await add.mutateAsync(values);
      }
      toast({ title: S.successTitle, description: card ? S.saved : S.added });
      onDone();
    } catch (error) {
      const named = isApiRequestError(error)
        ? (error.details ?? []).flatMap((detail) => {
            const field = fieldOf(detail.path);
            return field ? [{ field, message: detail.message }] : [];
          })
        : [];
      named.forEach(({ field, message }) => setError(field, { type: 'server', message }));
      if (named.length === 0) setError('root.server', { type: 'server', message: errorMessage(error, S.saveFailed) });
    }
  });

  const busy = isSubmitting;
  const content = useWatch({ control, name: 'content' }) ?? '';
  const numberField = (name: NumberFieldName, label: string, hint: string) => {
    const [min, max] = S.limits[name];
    return (
      <FormField label={label} hint={hint} error={errors[name] ? S.wholeNumber(min, max) : undefined}>
        {(field) => (
          <Input
            {...field}
            type="number"
            inputMode={min < 0 ? undefined : 'numeric'}
            min={min}
            max={max}
            step={1}
            disabled={busy}
            {...register(name, { valueAsNumber: true })}
          />
        )}
      </FormField>
    );
  };
  const keysField = (name: 'keys' | 'secondaryKeys', label: string, hint: string) => (
    <FormField label={label} hint={hint} error={listError(errors[name])}>
      {(field) => (
        <Controller
          control={control}
          name={name}
          render={({ field: { value, onChange, onBlur } }) => (
            <KeysInput
              control={field}
              label={label}
              value={value ?? []}
              onChange={onChange}
              onBlur={onBlur}
              disabled={busy}
            />
          )}
        />
      )}
    </FormField>
  );
  const switchField = (
    name: 'alwaysOn' | 'enabled' | 'caseSensitive' | 'wholeWords' | 'recursive',
    label: string,
    hint: string,
  ) => (
    <Controller
      control={control}
      name={name}
      render={({ field: { value, onChange } }) => (
        <SwitchField label={label} hint={hint} checked={value ?? false} onCheckedChange={onChange} disabled={busy} />
      )}
    />
  );

  return (
    <form
      noValidate
      onSubmit={(event) => void submit(event)}
      className="grid gap-4"
      aria-label={card ? S.editTitle(card.name) : S.addTitle}
    >
      {errors.root?.server ? (
        <Alert variant="destructive">
          <AlertDescription>{errors.root.server.message}</AlertDescription>
        </Alert>
      ) : null}
      <FormField label={S.nameLabel} error={errors.name?.message}>
        {(field) => <Input {...field} maxLength={CARD_NAME_MAX_LENGTH} disabled={busy} {...register('name')} />}
      </FormField>
      {keysField('keys', S.keysFieldLabel, S.keysHint)}
      <FormField
        label={S.contentLabel}
        hint={
          <span className="flex justify-between gap-2">
            <span>{S.contentHint}</span>
            <span aria-hidden="true" className="shrink-0 whitespace-nowrap tabular-nums">
              {S.contentCount(content.length)}
            </span>
          </span>
        }
        error={errors.content?.message}
      >
        {(field) => (
          <Textarea {...field} rows={5} maxLength={CARD_CONTENT_MAX_LENGTH} disabled={busy} {...register('content')} />
        )}
      </FormField>
      <div className="grid gap-3 sm:grid-cols-2">
        {switchField('alwaysOn', S.alwaysOnLabel, S.alwaysOnHint)}
        {switchField('enabled', S.enabledLabel, S.enabledHint)}
      </div>
      {keysField('secondaryKeys', S.secondaryKeysLabel, S.secondaryKeysHint)}
      <FormField label={S.secondaryLogicLabel} hint={S.secondaryLogicHint} error={errors.secondaryLogic?.message}>
        {(field) => (
          <Select {...field} disabled={busy} {...register('secondaryLogic')}>
            {CARD_SECONDARY_LOGIC.map((logic) => (
              <option key={logic} value={logic}>
                {S.secondaryLogic[logic]}
              </option>
            ))}
          </Select>
        )}
      </FormField>
      <fieldset className="grid gap-3 rounded-lg border p-3">
        <legend className="px-1 text-sm font-medium">{S.matchingLegend}</legend>
        {switchField('caseSensitive', S.caseSensitiveLabel, S.caseSensitiveHint)}
        {switchField('wholeWords', S.wholeWordsLabel, S.wholeWordsHint)}
        {switchField('recursive', S.recursiveLabel, S.recursiveHint)}
        {numberField('scanDepth', S.scanDepthLabel, S.scanDepthHint)}
      </fieldset>
      <fieldset className="grid gap-3 rounded-lg border p-3 sm:grid-cols-2">
        <legend className="px-1 text-sm font-medium">{S.timingLegend}</legend>
        {numberField('priority', S.priorityLabel, S.priorityHint)}
        {numberField('sticky', S.stickyLabel, S.stickyHint)}
        {numberField('cooldown', S.cooldownLabel, S.cooldownHint)}
        {numberField('delay', S.delayLabel, S.delayHint)}
      </fieldset>
      <DialogFooter>
        <Button variant="outline" onClick={onDone} disabled={busy}>
          {S.cancel}
        </Button>
        <Button type="submit" disabled={busy}>
          {busy ? S.saving : S.save}
        </Button>
      </DialogFooter>
    </form>
  );
}

export interface CardFormDialogProps {
  storyId: number;
  open: boolean;
  /** The card edited, or null to add one. */
  card: StoryCard | null;
  onOpenChange: (open: boolean) => void;
  /** Where focus goes when the dialog closes (the button that opened it). */
  returnFocus: () => HTMLElement | null;
}

export function CardFormDialog({ storyId, open, card, onOpenChange, returnFocus }: CardFormDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-xl" onCloseAutoFocus={returnFocusTo(() => returnFocus())}>
        <DialogHeader>
          <DialogTitle>{card ? S.editTitle(card.name) : S.addTitle}</DialogTitle>
          <DialogDescription>{S.formDescription}</DialogDescription>
        </DialogHeader>
        {/* The content mounts on each opening, so the form starts from the card (or blank) every time. */}
        <CardForm storyId={storyId} card={card} onDone={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  );
}
