// The dialogs a message's menu opens on the story page: 'Versions' (choose the version the story
// shows) and 'Erase from here?' (confirm). The story history hook says which is open.
import { EraseDialog } from '@client/features/story-versions/components/erase-dialog';
import { VersionsDialog } from '@client/features/story-versions/components/versions-dialog';
import type { StoryHistoryControls } from '../hooks/use-story-history';

export function StoryHistoryDialogs({ storyId, history }: { storyId: number | null; history: StoryHistoryControls }) {
  const { dialog } = history;
  if (!dialog || storyId === null) return null;
  const close = (open: boolean) => (open ? undefined : history.closeDialog());
  if (dialog.kind === 'versions') {
    return (
      <VersionsDialog
        storyId={storyId}
        messageId={dialog.messageId}
        open={dialog.open}
        onOpenChange={close}
        onSelect={(version) => history.selectInDialog(dialog.messageId, version)}
        returnFocus={dialog.returnFocus}
      />
    );
  }
  return (
    <EraseDialog
      open={dialog.open}
      pending={history.busy}
      onOpenChange={close}
      onConfirm={history.confirmErase}
      returnFocus={dialog.returnFocus}
    />
  );
}
