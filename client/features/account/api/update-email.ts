// POST /api/update-email {email} -> user. Used by the account page and the 'Email Required' dialog;
// the answer becomes the session user at once, then the user is read again from the server.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { userResponseSchema, type UpdateEmailBody } from '@shared/schemas/auth';
import type { User } from '@shared/schemas/user';
import { apiWrite } from '@client/lib/api-client';
import { userQueryKey } from '@client/features/auth';

export function updateEmail(body: UpdateEmailBody): Promise<User> {
  return apiWrite('/api/update-email', { body, schema: userResponseSchema });
}

export function useUpdateEmailMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateEmail,
    meta: { errorToast: false },
    onSuccess: async (user) => {
      queryClient.setQueryData(userQueryKey, user);
      await queryClient.invalidateQueries({ queryKey: userQueryKey });
    },
  });
}
