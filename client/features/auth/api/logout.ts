// POST /api/logout -> {success: true}. Local user data is cleared whatever the server answers
//, and the toast says which of the two happened.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Success } from '@shared/schemas/common';
import { apiWrite } from '@client/lib/api-client';
import { toast } from '@client/components/ui/use-toast';
import { AUTH_STRINGS } from '../strings';
import { clearLocalUserData } from '../utils/session-persistence';
import { clearSessionUser } from './get-user';

/** No zod here: logout sits in the app shell and its answer changes nothing (local data goes anyway). */
export function logout(): Promise<Success> {
  return apiWrite<Success>('/api/logout');
}

export function useLogoutMutation(options: { onSettled?: () => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: logout,
    meta: { errorToast: false },
    onSuccess: () => toast({ title: AUTH_STRINGS.logoutSuccessTitle, description: AUTH_STRINGS.logoutSuccessText }),
    onError: () => toast({ title: AUTH_STRINGS.logoutSuccessTitle, description: AUTH_STRINGS.logoutLocalText }),
    onSettled: () => {
      clearLocalUserData();
      clearSessionUser(queryClient);
      options.onSettled?.();
    },
  });
}
