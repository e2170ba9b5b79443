// Starting a story from the start screen. Logged in: the story page takes over at /story/new with
// the composed prompt. Visitor: the request is kept as the pending operation and they log in
// first; back on Home it starts by itself, exactly once. The pending-operation
// module (with zod) is loaded only when needed, keeping the home page light.
import { useCallback, useEffect } from 'react';
import { useNavigate } from 'react-router';
import { toast } from '@client/components/ui/use-toast';
import type { PendingOperation } from '@client/lib/pending-actions';
import { readItem } from '@client/lib/storage';
import { LOCAL_STORAGE_KEYS } from '@client/lib/storage-keys';
import { useAuthGate, useSession } from '@client/features/auth';
import { HOME_STRINGS } from '../strings';

export type StartRequest = PendingOperation['data'];

/** Router state /story/new reads: the story to start. */
export interface StoryStartState {
  start: StartRequest;
}

const HOME_PATH = '/';
/** One resume per page load, even if React runs the effect twice. */
let resuming = false;

export function useStartStory(): (request: StartRequest) => void {
  const navigate = useNavigate();
  const gate = useAuthGate();
  const { isLoggedIn, isLoading } = useSession();

  useEffect(() => {
    if (isLoading || !isLoggedIn || resuming || readItem(LOCAL_STORAGE_KEYS.pendingOperation) === null) return;
    resuming = true;
    void import('@client/lib/pending-actions').then(({ readPendingOperation, clearPendingOperation }) => {
      const operation = readPendingOperation();
      clearPendingOperation();
      resuming = false;
      if (!operation) return;
      toast({ title: HOME_STRINGS.resumingTitle, description: HOME_STRINGS.resumingText });
      navigate('/story/new', { state: { start: operation.data } satisfies StoryStartState });
    });
  }, [isLoading, isLoggedIn, navigate]);

  return useCallback(
    (request: StartRequest) => {
      if (!gate()) return;
      if (isLoggedIn) {
        navigate('/story/new', { state: { start: request } satisfies StoryStartState });
        return;
      }
      void Promise.all([import('@client/lib/pending-actions'), import('@client/lib/auth-redirect')]).then(
        ([pending, redirect]) => {
          pending.savePendingOperation({ type: 'start_story', data: request, path: HOME_PATH });
          navigate(redirect.buildAuthPath(HOME_PATH));
        },
      );
    },
    [gate, isLoggedIn, navigate],
  );
}
