// 'What the narrator saw': the small button in a narrator reply's action row that opens the context
// viewer for that reply; it hands over itself, for focus to come back to.
import { ScanEye } from 'lucide-react';
import { Button } from '@client/components/ui/button';
import { STORY_CARDS_STRINGS as S } from '../strings';

export function NarratorContextAction({ onOpen }: { onOpen: (trigger: HTMLElement) => void }) {
  return (
    <Button
      variant="ghost"
      size="icon"
      onClick={(event) => onOpen(event.currentTarget)}
      aria-label={S.contextAction}
      title={S.contextAction}
      className="size-8 text-muted-foreground"
    >
      <ScanEye aria-hidden="true" />
    </Button>
  );
}
