// 'Narrator’s Writing' in the story page's 'Story Experience' drawer: the story's narrator (when the
// operator offers more than one), reply length (short, medium, long) and creativity (its temperature,
// 0-2), saved with the story for the next reply. The length is saved as it is chosen; the slider once it rests, not on every step, or
// as the section closes (the drawer shut before the slider rested).
import { useEffect, useId, useRef, useState } from 'react';
import { TEMPERATURE_MAX, TEMPERATURE_MIN, type ReplyLength } from '@shared/schemas/story-settings';
import { Label } from '@client/components/ui/label';
import { Select } from '@client/components/ui/select';
import { SliderField } from '@client/components/ui/slider-field';
import { ToggleGroup, ToggleGroupItem } from '@client/components/ui/toggle-group';
import { useDebouncedValue } from '@client/lib/use-debounced-value';
import { useNarrators } from '@client/features/narrators';
import { useSaveStorySettingsMutation, useStorySettings } from '../api/story-settings';
import { STORY_STRINGS as S } from '../strings';

const LENGTHS: ReplyLength[] = ['short', 'medium', 'long'];
/** How long the slider rests before its value is saved. */
const SAVE_AFTER_MS = 400;

export function StoryWritingSection({ storyId }: { storyId: number | null }) {
  const headingId = useId();
  const lengthLabelId = useId();
  const narratorId = useId();
  const narratorHelpId = useId();
  const settings = useStorySettings(storyId);
  const narrators = useNarrators();
  const save = useSaveStorySettingsMutation(storyId ?? 0);
  const [creativity, setCreativity] = useState<number | null>(null);
  const resting = useDebouncedValue(creativity, SAVE_AFTER_MS);
  /** The last creativity sent: a value is saved once, however often the page renders. */
  const sent = useRef<number | null>(null);
  const { mutate } = save;
  useEffect(() => {
    if (resting === null || resting === sent.current) return;
    sent.current = resting;
    // Refused (the error toasts): the slider goes back to the story's saved value.
    mutate(
      { temperature: resting },
      {
        onError: () => {
          sent.current = null;
          setCreativity(null);
        },
      },
    );
  }, [resting, mutate]);
  /** The slider's value now, for the save as the section closes. */
  const latest = useRef<number | null>(null);
  useEffect(() => {
    latest.current = creativity;
  }, [creativity]);
  useEffect(
    () => () => {
      const value = latest.current;
      if (value === null || value === sent.current) return;
      sent.current = value;
      mutate({ temperature: value });
    },
    [mutate],
  );

  if (storyId === null) return null;
  const data = settings.data;
  const shown = creativity ?? data?.temperature ?? 0;
  // A picker of one is no choice: it shows once the operator offers several.
  const offered = narrators.data?.narrators ?? [];
  const chosen = offered.find((narrator) => narrator.id === data?.narrator);
  return (
    <section aria-labelledby={headingId} className="grid gap-3">
      <h3 id={headingId} className="font-serif text-lg font-semibold">
        {S.writingSection}
      </h3>
      <p className="text-sm text-muted-foreground">{S.writingHelp}</p>
      {settings.isError ? (
        <p role="alert" className="text-sm text-destructive">
          {S.writingUnavailable}
        </p>
      ) : null}
      {offered.length > 1 ? (
        <div className="grid gap-2">
          <Label htmlFor={narratorId}>{S.narratorPick}</Label>
          <Select
            id={narratorId}
            value={data?.narrator ?? ''}
            disabled={!data}
            aria-describedby={narratorHelpId}
            onChange={(event) => save.mutate({ narrator: event.target.value })}
          >
            {offered.map((narrator) => (
              <option key={narrator.id} value={narrator.id}>
                {narrator.label}
              </option>
            ))}
          </Select>
          <p id={narratorHelpId} className="text-sm text-muted-foreground">
            {chosen ? S.narratorAbout(chosen.description, chosen.contextTokens) : null}
          </p>
        </div>
      ) : null}
      {data?.narratorFellBack ? (
        <p role="status" className="text-sm text-muted-foreground">
          {S.narratorFellBack}
        </p>
      ) : null}
      <div className="flex flex-wrap items-center justify-between gap-3">
        <span id={lengthLabelId} className="text-sm font-medium">
          {S.replyLength}
        </span>
        <ToggleGroup
          type="single"
          aria-labelledby={lengthLabelId}
          value={data?.replyLength ?? ''}
          disabled={!data}
          onValueChange={(value) => {
            if (value) save.mutate({ replyLength: value as ReplyLength });
          }}
        >
          {LENGTHS.map((length) => (
            <ToggleGroupItem key={length} value={length}>
              {S.replyLengths[length]}
            </ToggleGroupItem>
          ))}
        </ToggleGroup>
      </div>
      <SliderField
        label={S.creativity}
        valueText={S.creativityValue(shown)}
        help={S.creativityHelp(data?.temperatureMax ?? TEMPERATURE_MAX)}
        min={TEMPERATURE_MIN}
        max={TEMPERATURE_MAX}
        step={0.1}
        value={shown}
        disabled={!data}
        onValueChange={setCreativity}
      />
    </section>
  );
}
