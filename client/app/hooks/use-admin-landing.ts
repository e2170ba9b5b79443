// A logged-in admin whose page load starts on '/' without a `redirect` parameter is
// sent to /admin, once per page load. Later visits to '/' (the Home link) are left alone.
import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import type { User } from '@shared/schemas/user';

/** The URL this page load started with, read once when the module loads. */
const initialLocation = { pathname: window.location.pathname, search: window.location.search };
const landing = { decided: false };

export interface AdminLandingInput {
  initialPathname: string;
  initialSearch: string;
  currentPathname: string;
  user: User | null;
}

export function shouldSendAdminToDashboard({
  initialPathname,
  initialSearch,
  currentPathname,
  user,
}: AdminLandingInput): boolean {
  if (!user?.isAdmin) return false;
  if (initialPathname !== '/' || currentPathname !== '/') return false;
  return !new URLSearchParams(initialSearch).has('redirect');
}

export function useAdminLanding(user: User | null, isLoading: boolean): void {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  useEffect(() => {
    if (landing.decided || isLoading) return;
    // Decided on the first settled session, whatever the answer: logging in later never redirects.
    landing.decided = true;
    const send = shouldSendAdminToDashboard({
      initialPathname: initialLocation.pathname,
      initialSearch: initialLocation.search,
      currentPathname: pathname,
      user,
    });
    if (send) void navigate('/admin', { replace: true });
  }, [isLoading, navigate, pathname, user]);
}
