// Where the story meets the images feature: the pictures of the story on screen are polled while
// the story is shown (settling into the story store), 'Illustrate this scene' and Retry ask the
// painter (generate-initial-image for the opening reply, generate-image for others) and mark the
// picture as being painted once the painter took the job, and the header picture is derived.
// Nothing is polled or offered when the server paints no pictures; nothing new is asked for while
// the player's flag is off.
import { useCallback, useMemo, useState } from 'react';
import { usePicturePolling, useRequestPicture, useSceneImageSettings } from '@client/features/images';
import type { ChatPictureActions } from '../components/chat-view';
import type { StoryController } from '../state/story-controller';
import { pendingPictureIds, type StoryState } from '../state/story-state';
import { headerPicture } from '../utils/header-picture';

export function useStoryPictures(state: StoryState, controller: StoryController, userId: number | null) {
  const settings = useSceneImageSettings(userId);
  const pending = useMemo(
    () => (settings.available ? pendingPictureIds(state.messages) : []),
    [settings.available, state.messages],
  );
  usePicturePolling(pending, {
    onReady: (messageId, picture) => controller.pictureReady(messageId, picture),
    onFailed: (messageId, reason) => controller.pictureFailed(messageId, reason),
    onStalled: (messageId) => controller.pictureStalled(messageId),
  });

  const requestPicture = useRequestPicture();
  const [busyIds, setBusyIds] = useState<ReadonlySet<number>>(() => new Set());
  const setBusy = useCallback((messageId: number, busy: boolean) => {
    setBusyIds((current) => {
      const next = new Set(current);
      if (busy) next.add(messageId);
      else next.delete(messageId);
      return next;
    });
  }, []);

  const ask = useCallback(
    async (messageId: number, retry: boolean) => {
      const current = controller.store.getState();
      const replies = current.messages.filter((m) => m.role === 'assistant' && !m.isNotice);
      const message = replies.find((m) => m.messageId === messageId);
      // A picture whose status checks failed is still being painted: just look again.
      if (message?.picture?.status === 'pending' && message.picture.stalled) {
        controller.pictureRequested(messageId);
        return;
      }
      setBusy(messageId, true);
      const accepted = await requestPicture({
        storyId: current.storyId,
        messageId: message?.messageId,
        content: message?.content,
        initial: message !== undefined && message === replies[0],
        retry,
      });
      setBusy(messageId, false);
      if (accepted && controller.store.getState().storyId === current.storyId) controller.pictureRequested(messageId);
    },
    [controller, requestPicture, setBusy],
  );

  const onIllustrate = useCallback((messageId: number) => void ask(messageId, false), [ask]);
  const onRetry = useCallback((messageId: number) => void ask(messageId, true), [ask]);
  const actions = useMemo<ChatPictureActions | undefined>(
    () => (settings.active ? { busyIds, onIllustrate, onRetry } : undefined),
    [settings.active, busyIds, onIllustrate, onRetry],
  );
  const header = useMemo(() => headerPicture(state.messages, state.storyImage), [state.messages, state.storyImage]);

  return { settings, actions, header };
}
export type StoryPictures = ReturnType<typeof useStoryPictures>;
