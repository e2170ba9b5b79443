// Keeps the given pictures polled while the component using it is mounted (the story view, so a
// picture is checked even when its bubble is scrolled out of the virtualised list). A picture whose
// checks kept failing raises the spec's 'Failed to check image status. Please try again.' toast.
import { useEffect, useLayoutEffect, useRef } from 'react';
import { toast } from '@client/components/ui/use-toast';
import { IMAGES_STRINGS } from '../strings';
import { createPicturePoller, type PicturePoller, type PicturePollerHandlers } from '../utils/picture-poller';

export function usePicturePolling(messageIds: readonly number[], handlers: PicturePollerHandlers) {
  const handlersRef = useRef(handlers);
  useLayoutEffect(() => {
    handlersRef.current = handlers;
  });
  const pollerRef = useRef<PicturePoller | null>(null);
  useEffect(() => {
    const poller = createPicturePoller({
      onReady: (id, picture) => handlersRef.current.onReady(id, picture),
      onFailed: (id, reason) => handlersRef.current.onFailed(id, reason),
      onStalled: (id, message) => {
        toast({ title: IMAGES_STRINGS.errorTitle, description: IMAGES_STRINGS.checkFailed, variant: 'destructive' });
        handlersRef.current.onStalled(id, message);
      },
    });
    pollerRef.current = poller;
    return () => {
      poller.stop();
      pollerRef.current = null;
    };
  }, []);
  // A string key: a new array with the same ids must not restart anything. Declared after the
  // effect above, so on mount the poller exists when this first runs.
  const key = messageIds.join(',');
  useEffect(() => {
    pollerRef.current?.sync(key === '' ? [] : key.split(',').map(Number));
  }, [key]);
}
