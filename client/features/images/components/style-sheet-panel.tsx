// The story's visual style sheet as a form (react-hook-form with the shared styleSheetSchema): the
// art style, the player character's look, and the recurring characters (name, face, hair, clothes),
// which can be added (up to 12) and removed. Save sends the whole sheet (PUT); the server's
// validation messages come back in an 'Error' toast, ours show under their fields.
import { useId } from 'react';
import { useForm, useFieldArray } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Plus, Trash2 } from 'lucide-react';
import {
  STYLE_SHEET_MAX_CHARACTERS,
  styleSheetSchema,
  type StyleSheetInput,
  type StyleSheetResponse,
} from '@shared/schemas/images';
import { Button } from '@client/components/ui/button';
import { FieldError, FormField } from '@client/components/ui/form-field';
import { Input } from '@client/components/ui/input';
import { Spinner } from '@client/components/ui/spinner';
import { Textarea } from '@client/components/ui/textarea';
import { toast } from '@client/components/ui/use-toast';
import { errorMessage } from '@client/lib/api-client';
import { useStyleSheet } from '../api/get-style-sheet';
import { useSaveStyleSheetMutation } from '../api/save-style-sheet';
import { IMAGES_STRINGS } from '../strings';

const EMPTY_CHARACTER = { name: '', face: '', hair: '', clothes: '' };

function toFormValues(sheet: StyleSheetResponse): StyleSheetInput {
  return {
    artStyle: sheet.artStyle,
    player: sheet.player,
    characters: sheet.characters.map((c) => ({ name: c.name, face: c.face, hair: c.hair, clothes: c.clothes })),
  };
}

export function StyleSheetPanel({ storyId }: { storyId: number }) {
  const sheet = useStyleSheet(storyId);
  if (sheet.isPending) return <Spinner label={IMAGES_STRINGS.loadingStyle} />;
  if (sheet.isError) {
    return (
      <div className="grid gap-2 text-sm">
        <p>{IMAGES_STRINGS.styleLoadFailed}</p>
        <div>
          <Button variant="outline" size="sm" onClick={() => void sheet.refetch()}>
            {IMAGES_STRINGS.retry}
          </Button>
        </div>
      </div>
    );
  }
  return <StyleSheetForm key={storyId} storyId={storyId} sheet={sheet.data} />;
}

const CHARACTER_FIELDS = [
  { key: 'face', label: IMAGES_STRINGS.characterFace },
  { key: 'hair', label: IMAGES_STRINGS.characterHair },
  { key: 'clothes', label: IMAGES_STRINGS.characterClothes },
] as const;

function StyleSheetForm({ storyId, sheet }: { storyId: number; sheet: StyleSheetResponse }) {
  const formId = useId();
  const save = useSaveStyleSheetMutation();
  const {
    register,
    control,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useForm({ resolver: zodResolver(styleSheetSchema), defaultValues: toFormValues(sheet) });
  const { fields, append, remove } = useFieldArray({ control, name: 'characters' });

  const handleSave = handleSubmit(async (values) => {
    try {
      const saved = await save.mutateAsync({ storyId, sheet: values });
      reset(toFormValues(saved));
      toast({ title: IMAGES_STRINGS.styleSavedTitle, description: IMAGES_STRINGS.styleSavedText });
    } catch (error) {
      toast({
        title: IMAGES_STRINGS.errorTitle,
        description: errorMessage(error, IMAGES_STRINGS.styleSaveFailed),
        variant: 'destructive',
      });
    }
  });

  const charactersError = errors.characters?.message ?? errors.characters?.root?.message;
  return (
    <form
      noValidate
      onSubmit={(event) => void handleSave(event)}
      className="grid gap-4"
      aria-label={IMAGES_STRINGS.visualStyleSection}
    >
      <FormField label={IMAGES_STRINGS.artStyle} error={errors.artStyle?.message}>
        {(field) => (
          <Textarea
            {...field}
            rows={2}
            className="min-h-16"
            placeholder={IMAGES_STRINGS.artStylePlaceholder}
            {...register('artStyle')}
          />
        )}
      </FormField>
      <FormField label={IMAGES_STRINGS.player} error={errors.player?.message}>
        {(field) => (
          <Textarea
            {...field}
            rows={2}
            className="min-h-16"
            placeholder={IMAGES_STRINGS.playerPlaceholder}
            {...register('player')}
          />
        )}
      </FormField>

      <fieldset className="grid gap-3">
        <legend className="mb-2 text-sm font-medium">{IMAGES_STRINGS.characters}</legend>
        {fields.length === 0 ? <p className="text-sm text-muted-foreground">{IMAGES_STRINGS.noCharacters}</p> : null}
        {fields.map((item, index) => {
          const heading = IMAGES_STRINGS.characterHeading(index + 1);
          const characterErrors = errors.characters?.[index];
          return (
            // Named by its heading (a <legend> cannot share a row with the remove button).
            <fieldset
              key={item.id}
              aria-labelledby={`${formId}-character-${item.id}`}
              className="grid gap-3 rounded-lg border bg-card/50 p-3"
            >
              <div className="flex items-center justify-between gap-2">
                <p id={`${formId}-character-${item.id}`} className="text-sm font-semibold">
                  {heading}
                </p>
                <Button
                  variant="ghost"
                  size="icon"
                  className="size-8"
                  onClick={() => remove(index)}
                  aria-label={IMAGES_STRINGS.removeCharacter(heading)}
                  title={IMAGES_STRINGS.removeCharacter(heading)}
                >
                  <Trash2 aria-hidden="true" />
                </Button>
              </div>
              <FormField label={IMAGES_STRINGS.characterName} error={characterErrors?.name?.message}>
                {(field) => <Input {...field} {...register(`characters.${index}.name`)} />}
              </FormField>
              {CHARACTER_FIELDS.map(({ key, label }) => (
                <FormField key={key} label={label} error={characterErrors?.[key]?.message}>
                  {(field) => <Input {...field} {...register(`characters.${index}.${key}`)} />}
                </FormField>
              ))}
            </fieldset>
          );
        })}
        {charactersError ? <FieldError>{charactersError}</FieldError> : null}
        <div>
          <Button
            variant="outline"
            size="sm"
            onClick={() => append(EMPTY_CHARACTER)}
            disabled={fields.length >= STYLE_SHEET_MAX_CHARACTERS}
          >
            <Plus aria-hidden="true" />
            {IMAGES_STRINGS.addCharacter}
          </Button>
        </div>
      </fieldset>

      <div>
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? IMAGES_STRINGS.savingStyle : IMAGES_STRINGS.saveStyle}
        </Button>
      </div>
    </form>
  );
}
