// The quiet 'i' on a settled narrator reply: a click, a tap or Enter opens a small panel
// with what the reply's calls cost: tokens sent (and the share the provider's prompt cache served),
// tokens written, the server's dollar figure, and whether the loop guard's second call is in it.
import { Info } from 'lucide-react';
import type { ReplyUsage } from '@shared/schemas/story';
import { Button } from '@client/components/ui/button';
import { Popover, PopoverContent, PopoverTrigger } from '@client/components/ui/popover';
import { ReplyCostList } from '@client/components/reply-cost-list';
import { STORY_STRINGS } from '../strings';

export function ReplyCostButton({ usage }: { usage: ReplyUsage }) {
  return (
    <Popover>
      <PopoverTrigger asChild>
        <Button
          variant="ghost"
          size="icon"
          aria-label={STORY_STRINGS.replyCostLabel}
          title={STORY_STRINGS.replyCostLabel}
          className="size-8 text-muted-foreground/80"
        >
          <Info aria-hidden="true" />
        </Button>
      </PopoverTrigger>
      <PopoverContent aria-label={STORY_STRINGS.replyCostLabel} className="w-auto font-sans text-xs">
        <ReplyCostList usage={usage} className="gap-1" data-reply-cost />
      </PopoverContent>
    </Popover>
  );
}
