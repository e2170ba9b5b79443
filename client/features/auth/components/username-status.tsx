// The username availability hint. Always rendered as a polite live region, so a change from
// "checking" to "available" or "taken" is announced; colour is backed by an icon and words.
import { Check, Loader2, X } from 'lucide-react';
import { cn } from '@client/lib/utils';
import type { UsernameAvailability } from '../hooks/use-username-availability';
import { AUTH_STRINGS } from '../strings';

const LABELS: Record<UsernameAvailability, string> = {
  unknown: '',
  checking: AUTH_STRINGS.usernameChecking,
  available: AUTH_STRINGS.usernameAvailable,
  taken: AUTH_STRINGS.usernameTaken,
};

export function UsernameStatus({ availability }: { availability: UsernameAvailability }) {
  return (
    <span
      aria-live="polite"
      data-availability={availability}
      className={cn(
        'inline-flex min-h-4 items-center gap-1.5',
        availability === 'available' && 'text-success',
        availability === 'taken' && 'text-destructive-text',
      )}
    >
      {availability === 'checking' ? (
        <Loader2 className="size-3.5 animate-spin motion-reduce:animate-none" aria-hidden="true" />
      ) : null}
      {availability === 'available' ? <Check className="size-3.5" aria-hidden="true" /> : null}
      {availability === 'taken' ? <X className="size-3.5" aria-hidden="true" /> : null}
      {LABELS[availability]}
    </span>
  );
}
