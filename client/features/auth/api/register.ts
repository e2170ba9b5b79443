// POST /api/register {username, email, password, captchaAnswer} -> user (201). The server sets the
// session cookie, so the new user is logged in straight away.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { userResponseSchema, type RegisterBody } from '@shared/schemas/auth';
import type { User } from '@shared/schemas/user';
import { apiWrite } from '@client/lib/api-client';
import { setSessionUser } from './get-user';

export function register(body: RegisterBody): Promise<User> {
  return apiWrite('/api/register', { body, schema: userResponseSchema });
}

export function useRegisterMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: register,
    meta: { errorToast: false },
    onSuccess: (user) => setSessionUser(queryClient, user),
  });
}
