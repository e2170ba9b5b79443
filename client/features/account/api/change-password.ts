// POST /api/settings/password {currentPassword, newPassword} -> {success}; the user is refreshed after.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ChangePasswordBody } from '@shared/schemas/auth';
import { successSchema, type Success } from '@shared/schemas/common';
import { apiWrite } from '@client/lib/api-client';
import { userQueryKey } from '@client/features/auth';

export function changePassword(body: ChangePasswordBody): Promise<Success> {
  return apiWrite('/api/settings/password', { body, schema: successSchema });
}

export function useChangePasswordMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changePassword,
    meta: { errorToast: false },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userQueryKey }),
  });
}
