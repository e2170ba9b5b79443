// The dialogs a message's menu opens on the story page: 'Versions' (choose the version the story
// shows) and 'Erase from here?' (confirm). The story versions hook says which is open.
import type { StoryVersionsControls } from '../hooks/use-story-versions';
import { EraseDialog } from './erase-dialog';
import { VersionsDialog } from './versions-dialog';

export function StoryVersionsDialogs({
  storyId,
  versions,
}: {
  storyId: number | null;
  versions: StoryVersionsControls;
}) {
  const { dialog } = versions;
  if (!dialog || storyId === null) return null;
  const close = (open: boolean) => (open ? undefined : versions.closeDialog());
  if (dialog.kind === 'versions') {
    return (
      <VersionsDialog
        storyId={storyId}
        messageId={dialog.messageId}
        open={dialog.open}
        onOpenChange={close}
        onSelect={(version) => versions.selectInDialog(dialog.messageId, version)}
        returnFocus={dialog.returnFocus}
      />
    );
  }
  return (
    <EraseDialog
      open={dialog.open}
      pending={versions.busy}
      onOpenChange={close}
      onConfirm={versions.confirmErase}
      returnFocus={dialog.returnFocus}
    />
  );
}
