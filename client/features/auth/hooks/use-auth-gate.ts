// For actions that need to know whether someone is logged in: while that is still being checked the
// spec says toast 'Please wait' / 'Checking authentication status' and do nothing else.
import { useCallback } from 'react';
import { toast } from '@client/components/ui/use-toast';
import { AUTH_STRINGS } from '../strings';
import { useSession } from './use-session';

/** Returns a check to call first in such a handler: false means "stop, we told the user to wait". */
export function useAuthGate(): () => boolean {
  const { isLoading } = useSession();
  return useCallback(() => {
    if (!isLoading) return true;
    toast({ title: AUTH_STRINGS.authCheckingTitle, description: AUTH_STRINGS.authCheckingText });
    return false;
  }, [isLoading]);
}
