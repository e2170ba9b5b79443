// The register form's username hint: unknown, checking, available or taken. Asks the server 500 ms
// after typing stops, and only for names that could be registered at all (3+ valid characters).
import { USERNAME_CHECK_DELAY_MS } from '@shared/constants';
import { usernameSchema } from '@shared/schemas/auth';
import { useDebouncedValue } from '@client/lib/use-debounced-value';
import { useCheckUsername } from '../api/check-username';

export type UsernameAvailability = 'unknown' | 'checking' | 'available' | 'taken';

export function useUsernameAvailability(username: string): UsernameAvailability {
  const candidate = username.trim();
  const checkable = usernameSchema.safeParse(candidate).success;
  const settled = useDebouncedValue(candidate, USERNAME_CHECK_DELAY_MS);
  const typingStopped = settled === candidate;
  const query = useCheckUsername(settled, checkable && typingStopped);

  if (!checkable) return 'unknown';
  if (!typingStopped) return 'checking';
  if (query.data) return query.data.available ? 'available' : 'taken';
  if (query.isError) return 'unknown';
  return 'checking';
}
