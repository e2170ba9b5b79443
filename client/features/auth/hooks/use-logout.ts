// Logout as the chrome and the admin page use it: clear everything, then go to `redirectTo`.
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { useLogoutMutation } from '../api/logout';

export function useLogout(redirectTo = '/') {
  const navigate = useNavigate();
  const mutation = useLogoutMutation({ onSettled: () => navigate(redirectTo) });
  const { mutate } = mutation;
  const logout = useCallback(() => mutate(), [mutate]);
  return { logout, isPending: mutation.isPending };
}
