// The story page's options drawer 'Story Experience': a side sheet opened from the
// Settings2 button above the chat, always there. The page fills its slots with each feature's
// sections, always in this order: narration ('Narrator Voice'), the story's writing ('Narrator’s
// Writing': reply length and creativity), images ('Scene Images' and 'Visual Style', only when the
// server paints pictures), ads ('Advertisement Settings'). It owns none of them.
import { useState, type ReactNode } from 'react';
import { Settings2 } from 'lucide-react';
import { Button } from '@client/components/ui/button';
import { Sheet, SheetContent, SheetDescription, SheetTitle, SheetTrigger } from '@client/components/ui/sheet';
import { Tooltip, TooltipContent, TooltipTrigger } from '@client/components/ui/tooltip';
import { cn } from '@client/lib/utils';
import { STORY_STRINGS } from '../strings';

export interface StoryExperienceDrawerProps {
  narration?: ReactNode;
  writing?: ReactNode;
  images?: ReactNode;
  ads?: ReactNode;
}

export function StoryExperienceDrawer({ narration, writing, images, ads }: StoryExperienceDrawerProps) {
  const [open, setOpen] = useState(false);
  // Keyed by slot, so a section never remounts (losing its state) when one before it comes or goes.
  const sections = (
    [
      ['narration', narration],
      ['writing', writing],
      ['images', images],
      ['ads', ads],
    ] as const
  ).filter(([, section]) => section !== null && section !== undefined && section !== false);
  return (
    <Sheet open={open} onOpenChange={setOpen}>
      <Tooltip>
        <TooltipTrigger asChild>
          <SheetTrigger asChild>
            <Button variant="outline" size="icon" aria-label={STORY_STRINGS.storyExperience}>
              <Settings2 aria-hidden="true" />
            </Button>
          </SheetTrigger>
        </TooltipTrigger>
        <TooltipContent>{STORY_STRINGS.storyExperience}</TooltipContent>
      </Tooltip>
      <SheetContent side="right" closeLabel="Close" className="w-[min(28rem,92vw)] gap-6">
        <div className="grid gap-1 pr-8">
          <SheetTitle className="text-xl">{STORY_STRINGS.storyExperience}</SheetTitle>
          <SheetDescription>{STORY_STRINGS.storyExperienceText}</SheetDescription>
        </div>
        <div className="grid gap-6">
          {sections.map(([slot, section], index) => (
            <div key={slot} className={cn('grid gap-6', index > 0 && 'border-t pt-6')}>
              {section}
            </div>
          ))}
        </div>
      </SheetContent>
    </Sheet>
  );
}
