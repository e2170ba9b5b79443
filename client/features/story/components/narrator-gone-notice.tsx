// Above the story while the narrator it names has gone (removed from the operator's file, or closed
// to the player): the default writes it meanwhile, never an error. The notice says so and lets the
// player keep the default (saved as the story's narrator, which ends the notice) or pick another in
// the 'Story Experience' drawer.
import { Alert, AlertDescription, AlertTitle } from '@client/components/ui/alert';
import { Button } from '@client/components/ui/button';
import { useNarrators } from '@client/features/narrators';
import { useSaveStorySettingsMutation, useStorySettings } from '../api/story-settings';
import { STORY_STRINGS } from '../strings';

export function NarratorGoneNotice({ storyId }: { storyId: number | null }) {
  const narrators = useNarrators().data?.narrators ?? [];
  // With one narrator there is nothing to choose: the page does not ask for the settings.
  const settings = useStorySettings(storyId, narrators.length > 1);
  const save = useSaveStorySettingsMutation(storyId ?? 0);
  const writing = narrators.find((narrator) => narrator.id === settings.data?.narrator);
  if (storyId === null || !settings.data?.narratorFellBack || !writing) return null;
  return (
    <Alert className="mb-4">
      <AlertTitle>{STORY_STRINGS.narratorGoneTitle}</AlertTitle>
      <AlertDescription className="grid gap-3">
        <p>{STORY_STRINGS.narratorGone(writing.label)}</p>
        <Button
          variant="outline"
          size="sm"
          className="justify-self-start"
          disabled={save.isPending}
          onClick={() => save.mutate({ narrator: writing.id })}
        >
          {STORY_STRINGS.narratorKeepDefault(writing.label)}
        </Button>
      </AlertDescription>
    </Alert>
  );
}
