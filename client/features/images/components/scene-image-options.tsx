// The image sections of the story page's 'Story Experience' drawer: 'Scene Images' (the switch for
// the player's image-generation flag, saved on the server, and a line on what it does) and, for a
// story with an id, 'Visual Style' (the story's style sheet). Nothing shows when the server paints
// no pictures.
import { useId } from 'react';
import { Label } from '@client/components/ui/label';
import { Switch } from '@client/components/ui/switch';
import type { SceneImageSettings } from '../hooks/use-scene-image-settings';
import { IMAGES_STRINGS } from '../strings';
import { StyleSheetPanel } from './style-sheet-panel';

export function SceneImageOptions({ settings, storyId }: { settings: SceneImageSettings; storyId: number | null }) {
  const switchId = useId();
  const helpId = useId();
  const headingId = useId();
  const styleHeadingId = useId();
  if (!settings.available) return null;
  return (
    <>
      <section aria-labelledby={headingId} className="grid gap-3">
        <h3 id={headingId} className="font-serif text-lg font-semibold">
          {IMAGES_STRINGS.sceneImagesSection}
        </h3>
        <div className="flex items-center justify-between gap-4">
          <Label htmlFor={switchId}>{IMAGES_STRINGS.generateToggle}</Label>
          <Switch
            id={switchId}
            checked={settings.enabled}
            onCheckedChange={(checked) => void settings.setEnabled(checked)}
            disabled={settings.saving}
            aria-describedby={helpId}
          />
        </div>
        <p id={helpId} className="text-sm text-muted-foreground">
          {IMAGES_STRINGS.generateHelp}
        </p>
      </section>
      {storyId !== null ? (
        <section aria-labelledby={styleHeadingId} className="grid gap-3 border-t pt-4">
          <h3 id={styleHeadingId} className="font-serif text-lg font-semibold">
            {IMAGES_STRINGS.visualStyleSection}
          </h3>
          <p className="text-sm text-muted-foreground">{IMAGES_STRINGS.visualStyleHelp}</p>
          <StyleSheetPanel storyId={storyId} />
        </section>
      ) : null}
    </>
  );
}
