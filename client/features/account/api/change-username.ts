// POST /api/settings/username {newUsername} -> user; the session user is refreshed afterwards.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { userResponseSchema, type ChangeUsernameBody } from '@shared/schemas/auth';
import type { User } from '@shared/schemas/user';
import { apiWrite } from '@client/lib/api-client';
import { userQueryKey } from '@client/features/auth';

export function changeUsername(body: ChangeUsernameBody): Promise<User> {
  return apiWrite('/api/settings/username', { body, schema: userResponseSchema });
}

export function useChangeUsernameMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changeUsername,
    meta: { errorToast: false },
    onSuccess: async (user) => {
      queryClient.setQueryData(userQueryKey, user);
      await queryClient.invalidateQueries({ queryKey: userQueryKey });
    },
  });
}
