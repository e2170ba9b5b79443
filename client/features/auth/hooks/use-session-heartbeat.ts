// While a saved user id exists, checks the session every 30 s with HEAD /api/user. A 401 means the
// session ended elsewhere (expiry, logout in another tab), so the user is cleared here too. An active
// session while no user is shown means the user read failed earlier (server hiccup): read it again.
// That is the safe part of the spec's "automatic re-login": the cookie session resumes by itself,
// and no password is ever kept to log in again.
import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { SESSION_CHECK_INTERVAL_MS } from '@shared/constants';
import { checkSession } from '../api/check-session';
import { clearSessionUser, userQueryKey } from '../api/get-user';
import { hasSavedUserId } from '../utils/session-persistence';

/** `userId` restarts the timer when someone logs in or out. */
export function useSessionHeartbeat(userId: number | null): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (userId === null && !hasSavedUserId()) return undefined;
    const controller = new AbortController();
    const timer = setInterval(() => {
      if (!hasSavedUserId()) return;
      void checkSession(controller.signal).then((result) => {
        if (result === 'expired') clearSessionUser(queryClient);
        else if (result === 'active' && !queryClient.getQueryData(userQueryKey))
          void queryClient.invalidateQueries({ queryKey: userQueryKey });
      });
    }, SESSION_CHECK_INTERVAL_MS);
    return () => {
      clearInterval(timer);
      controller.abort();
    };
  }, [queryClient, userId]);
}
