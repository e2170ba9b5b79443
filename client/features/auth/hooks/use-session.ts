// The session as the UI sees it: who is logged in, and whether that is still being found out.
import type { User } from '@shared/schemas/user';
import { useUser } from '../api/get-user';

export interface Session {
  user: User | null;
  /** True until the first answer from GET /api/user (or its final failure) arrives. */
  isLoading: boolean;
  isLoggedIn: boolean;
  isAdmin: boolean;
}

export function useSession(): Session {
  const query = useUser();
  // A failed read (5xx, network) leaves no user: the visitor is treated as logged out.
  const user = query.data ?? null;
  return { user, isLoading: query.isPending, isLoggedIn: user !== null, isAdmin: user?.isAdmin ?? false };
}
