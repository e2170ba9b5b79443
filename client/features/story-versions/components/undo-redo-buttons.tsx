// Undo and Redo beside the story's input: Undo takes back the last turn (never the opening), Redo
// brings back what was last undone or erased. Both wait while the narrator writes or while one
// of them is on its way.
import type { ReactNode } from 'react';
import { Redo2, Undo2 } from 'lucide-react';
import { Button } from '@client/components/ui/button';
import { Tooltip, TooltipContent, TooltipTrigger } from '@client/components/ui/tooltip';
import { STORY_VERSIONS_STRINGS as S } from '../strings';

export interface UndoRedoButtonsProps {
  canUndo: boolean;
  canRedo: boolean;
  onUndo: () => void;
  onRedo: () => void;
}

function HistoryButton({
  label,
  enabled,
  onClick,
  icon,
}: {
  label: string;
  enabled: boolean;
  onClick: () => void;
  icon: ReactNode;
}) {
  return (
    <Tooltip>
      <TooltipTrigger asChild>
        <Button
          variant="ghost"
          size="sm"
          className="h-8 gap-1.5 px-2 text-muted-foreground hover:text-foreground"
          aria-label={label}
          disabled={!enabled}
          onClick={onClick}
        >
          {icon}
          <span aria-hidden="true" className="hidden sm:inline">
            {label}
          </span>
        </Button>
      </TooltipTrigger>
      <TooltipContent>{label}</TooltipContent>
    </Tooltip>
  );
}

export function UndoRedoButtons({ canUndo, canRedo, onUndo, onRedo }: UndoRedoButtonsProps) {
  return (
    <div className="flex items-center gap-1">
      <HistoryButton label={S.undo} enabled={canUndo} onClick={onUndo} icon={<Undo2 aria-hidden="true" />} />
      <HistoryButton label={S.redo} enabled={canRedo} onClick={onRedo} icon={<Redo2 aria-hidden="true" />} />
    </div>
  );
}
