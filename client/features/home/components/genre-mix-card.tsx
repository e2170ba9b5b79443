// The collapsible 'Genre Mix' card: an Active/Inactive switch and one slider per genre (0-100,
// step 10), disabled while inactive. Native range inputs: keyboard and screen-reader support for
// free, and nothing added to the home page's download.
import { useId, useState } from 'react';
import { ChevronDown } from 'lucide-react';
import { GENRES, GENRE_SLIDER_STEP, type Genre } from '@shared/constants';
import { Card } from '@client/components/ui/card';
import { Switch } from '@client/components/ui/switch';
import { cn } from '@client/lib/utils';
import { GENRE_LABELS, HOME_STRINGS } from '../strings';

export type GenreMixValues = Record<Genre, number>;

/** The card's own starting display: 25 for every genre (the start screen passes its own default). */
export const CARD_DEFAULT_MIX = Object.fromEntries(GENRES.map((genre) => [genre, 25])) as GenreMixValues;

export interface GenreMixCardProps {
  active: boolean;
  onActiveChange: (active: boolean) => void;
  mix?: GenreMixValues;
  onMixChange: (mix: GenreMixValues) => void;
  defaultOpen?: boolean;
}

export function GenreMixCard({
  active,
  onActiveChange,
  mix = CARD_DEFAULT_MIX,
  onMixChange,
  defaultOpen = false,
}: GenreMixCardProps) {
  const [open, setOpen] = useState(defaultOpen);
  const id = useId();
  const panelId = `${id}-panel`;
  const switchId = `${id}-switch`;

  return (
    <Card className="p-0">
      <div className="flex items-center justify-between gap-4 p-4">
        <button
          type="button"
          aria-expanded={open}
          aria-controls={panelId}
          onClick={() => setOpen((value) => !value)}
          className="flex flex-1 items-center gap-2 rounded-md text-left text-lg font-semibold outline-none focus-visible:ring-2 focus-visible:ring-ring"
        >
          <ChevronDown
            className={cn('size-5 transition-transform motion-reduce:transition-none', open ? 'rotate-180' : '')}
            aria-hidden="true"
          />
          {HOME_STRINGS.genreMixTitle}
          <span className="sr-only">{open ? HOME_STRINGS.hideGenreMix : HOME_STRINGS.showGenreMix}</span>
        </button>
        <div className="flex items-center gap-2">
          <label htmlFor={switchId} className="text-sm text-muted-foreground">
            {active ? HOME_STRINGS.active : HOME_STRINGS.inactive}
          </label>
          <Switch
            id={switchId}
            checked={active}
            onCheckedChange={onActiveChange}
            aria-label={HOME_STRINGS.genreMixSwitchLabel}
          />
        </div>
      </div>
      <div id={panelId} hidden={!open} className="grid gap-4 border-t px-4 pt-3 pb-5">
        <p className="text-sm text-muted-foreground">{HOME_STRINGS.genreMixHint}</p>
        <div className="grid gap-x-8 gap-y-4 sm:grid-cols-2">
          {GENRES.map((genre) => {
            const sliderId = `${id}-${genre}`;
            return (
              <div key={genre} className="grid gap-1.5">
                <div className="flex items-center justify-between text-sm">
                  <label htmlFor={sliderId} className={cn('font-medium', !active && 'opacity-60')}>
                    {GENRE_LABELS[genre]}
                  </label>
                  <output htmlFor={sliderId} className="text-muted-foreground tabular-nums">
                    {HOME_STRINGS.percent(mix[genre])}
                  </output>
                </div>
                <input
                  id={sliderId}
                  type="range"
                  min={0}
                  max={100}
                  step={GENRE_SLIDER_STEP}
                  value={mix[genre]}
                  disabled={!active}
                  aria-valuetext={HOME_STRINGS.percent(mix[genre])}
                  onChange={(event) => onMixChange({ ...mix, [genre]: Number(event.target.value) })}
                  className="h-2 w-full cursor-pointer accent-[var(--gold)] disabled:cursor-not-allowed disabled:opacity-50"
                />
              </div>
            );
          })}
        </div>
      </div>
    </Card>
  );
}
