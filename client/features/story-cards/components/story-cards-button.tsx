// The story page's 'Story Cards' button, beside 'Story Memory' and disabled by the same rules (no
// story yet, or the narrator is writing). The panel's code loads the first time it is opened, and
// stays mounted afterwards so it can close with its animation.
import { lazy, Suspense, useRef, useState } from 'react';
import { Layers } from 'lucide-react';
import { Button } from '@client/components/ui/button';
import { Tooltip, TooltipContent, TooltipTrigger } from '@client/components/ui/tooltip';
import { STORY_CARDS_STRINGS as S } from '../strings';

const StoryCardsPanel = lazy(() => import('./story-cards-panel').then((m) => ({ default: m.StoryCardsPanel })));

export function StoryCardsButton({ storyId, disabled = false }: { storyId: number | null; disabled?: boolean }) {
  const [open, setOpen] = useState(false);
  const [opened, setOpened] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  return (
    <>
      <Tooltip>
        <TooltipTrigger asChild>
          <Button
            ref={button}
            variant="outline"
            size="icon"
            onClick={() => {
              setOpened(true);
              setOpen(true);
            }}
            disabled={disabled || storyId === null}
            aria-label={S.tooltip}
          >
            <Layers aria-hidden="true" />
          </Button>
        </TooltipTrigger>
        <TooltipContent>{S.tooltip}</TooltipContent>
      </Tooltip>
      {storyId !== null && opened ? (
        <Suspense fallback={null}>
          <StoryCardsPanel
            key={storyId}
            storyId={storyId}
            open={open}
            onOpenChange={setOpen}
            returnFocus={() => button.current}
          />
        </Suspense>
      ) : null}
    </>
  );
}
