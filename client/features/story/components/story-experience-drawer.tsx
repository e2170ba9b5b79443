// The story page's options drawer 'Story Experience' (spec section 2): a side sheet opened from the
// Settings2 button above the chat. The page fills it with each feature's sections (today the scene
// images and visual style; narration and ad settings join later), so it owns none of them.
import { useState, type ReactNode } from 'react';
import { Settings2 } from 'lucide-react';
import { Button } from '@client/components/ui/button';
import { Sheet, SheetContent, SheetDescription, SheetTitle, SheetTrigger } from '@client/components/ui/sheet';
import { Tooltip, TooltipContent, TooltipTrigger } from '@client/components/ui/tooltip';
import { STORY_STRINGS } from '../strings';

export function StoryExperienceDrawer({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
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
        <div className="grid gap-6">{children}</div>
      </SheetContent>
    </Sheet>
  );
}
