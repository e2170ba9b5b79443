// The '‹ 2 / 3 ›' control under a narrator reply with several versions: the arrows show the
// previous or next one (the server switches it; the count follows its answer). Disabled at either
// end, while the switch is on its way, and while the narrator writes.
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { Button } from '@client/components/ui/button';
import { STORY_VERSIONS_STRINGS as S } from '../strings';

export interface VersionSwitcherProps {
  version: number;
  versions: number;
  busy?: boolean;
  disabled?: boolean;
  onSelect: (version: number) => void;
}

export function VersionSwitcher({ version, versions, busy = false, disabled = false, onSelect }: VersionSwitcherProps) {
  const off = disabled || busy;
  return (
    <div
      role="group"
      aria-label={S.switcherLabel}
      aria-busy={busy || undefined}
      className="flex items-center gap-0.5 font-sans text-sm text-muted-foreground"
    >
      <Button
        variant="ghost"
        size="icon"
        className="size-8"
        aria-label={S.previousVersion}
        disabled={off || version <= 1}
        onClick={() => onSelect(version - 1)}
      >
        <ChevronLeft aria-hidden="true" />
      </Button>
      <span className="min-w-10 text-center tabular-nums" aria-live="polite">
        {S.versionCount(version, versions)}
      </span>
      <Button
        variant="ghost"
        size="icon"
        className="size-8"
        aria-label={S.nextVersion}
        disabled={off || version >= versions}
        onClick={() => onSelect(version + 1)}
      >
        <ChevronRight aria-hidden="true" />
      </Button>
    </div>
  );
}
