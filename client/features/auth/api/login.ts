// POST /api/login {username, password} -> user. On success the user becomes the session user.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { userResponseSchema, type LoginBody } from '@shared/schemas/auth';
import type { User } from '@shared/schemas/user';
import { apiWrite } from '@client/lib/api-client';
import { setSessionUser } from './get-user';

export function login(body: LoginBody): Promise<User> {
  return apiWrite('/api/login', { body, schema: userResponseSchema });
}

export function useLoginMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: login,
    // The form shows 'Login Failed' with the server's message itself.
    meta: { errorToast: false },
    onSuccess: (user) => setSessionUser(queryClient, user),
  });
}
