// Beside Retry after a narrator failed a turn (a timeout, its server down or refusing): the other
// narrators the player may pick, and 'Switch and try again', which makes the chosen one the story's
// narrator and answers the action again with it. Shown only when there is another to pick.
import { useState } from 'react';
import { Button } from '@client/components/ui/button';
import { FormField } from '@client/components/ui/form-field';
import { Select } from '@client/components/ui/select';
import { useNarrators } from '@client/features/narrators';
import { useSaveStorySettingsMutation } from '../api/story-settings';
import { STORY_STRINGS } from '../strings';

export function SwitchNarrator({
  storyId,
  failed,
  onRetry,
}: {
  storyId: number;
  /** The id of the narrator that failed. */
  failed: string;
  onRetry: () => void;
}) {
  const others = (useNarrators().data?.narrators ?? []).filter((narrator) => narrator.id !== failed);
  const save = useSaveStorySettingsMutation(storyId);
  const [choice, setChoice] = useState<string | null>(null);
  if (others.length === 0) return null;
  const picked = others.some((narrator) => narrator.id === choice) ? choice! : others[0].id;

  const switchAndRetry = async () => {
    try {
      await save.mutateAsync({ narrator: picked });
    } catch {
      // The save's own error toast says why; the story keeps its narrator and Retry stays.
      return;
    }
    onRetry();
  };

  return (
    <div className="flex flex-wrap items-end gap-2">
      <FormField label={STORY_STRINGS.switchNarratorLabel}>
        {(control) => (
          <Select {...control} value={picked} onChange={(event) => setChoice(event.target.value)}>
            {others.map((narrator) => (
              <option key={narrator.id} value={narrator.id}>
                {narrator.label}
              </option>
            ))}
          </Select>
        )}
      </FormField>
      <Button variant="outline" size="sm" disabled={save.isPending} onClick={() => void switchAndRetry()}>
        {STORY_STRINGS.switchAndRetry}
      </Button>
    </div>
  );
}
