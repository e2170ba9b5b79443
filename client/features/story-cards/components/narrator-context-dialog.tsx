// The 'What the narrator saw' dialog as the story page places it: nothing until a reply's action
// first opens it, then its code loads (and stays, so it can close with its animation).
import { lazy, Suspense } from 'react';
import type { NarratorContextDialogState } from '../hooks/use-narrator-context-viewer';

const NarratorContextView = lazy(() =>
  import('./narrator-context-view').then((m) => ({ default: m.NarratorContextView })),
);

export function NarratorContextDialog({
  storyId,
  target,
  open,
  onOpenChange,
  returnFocus,
}: NarratorContextDialogState & { storyId: number | null }) {
  if (storyId === null || target === null) return null;
  return (
    <Suspense fallback={null}>
      <NarratorContextView
        storyId={storyId}
        target={target}
        open={open}
        onOpenChange={onOpenChange}
        returnFocus={returnFocus}
      />
    </Suspense>
  );
}
