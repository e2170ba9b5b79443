// The story page's share button (tooltip 'Share Story') and its flow: 'Name your story', then
// 'Share story' with the link. The viewport stays unscalable while either dialog is open.
import { Share2 } from 'lucide-react';
import { Button } from '@client/components/ui/button';
import { Tooltip, TooltipContent, TooltipTrigger } from '@client/components/ui/tooltip';
import { useShareFlow } from '../hooks/use-share-flow';
import { useViewportLock } from '../hooks/use-viewport-lock';
import { SHARING_STRINGS } from '../strings';
import { NameStoryDialog } from './name-story-dialog';
import { ShareLinkDialog } from './share-link-dialog';

export interface ShareStoryButtonProps {
  storyId: number | null;
  disabled?: boolean;
}

export function ShareStoryButton({ storyId, disabled = false }: ShareStoryButtonProps) {
  const flow = useShareFlow(storyId);
  useViewportLock(flow.phase !== 'closed');
  return (
    <>
      <Tooltip>
        <TooltipTrigger asChild>
          <Button
            variant="outline"
            size="icon"
            onClick={flow.open}
            disabled={disabled || storyId === null}
            aria-label={SHARING_STRINGS.shareTooltip}
          >
            <Share2 aria-hidden="true" />
          </Button>
        </TooltipTrigger>
        <TooltipContent>{SHARING_STRINGS.shareTooltip}</TooltipContent>
      </Tooltip>
      <NameStoryDialog flow={flow} />
      <ShareLinkDialog shareId={flow.phase === 'shared' ? flow.shareId : null} onClose={flow.close} />
    </>
  );
}
