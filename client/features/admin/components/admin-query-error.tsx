// A dashboard section's failure, said in place: the spec's permission message when the server no
// longer lets this session in (no retry: trying again cannot help), otherwise the section's message
// with a retry button, so one failing request never takes the rest of the dashboard down.
import { RotateCcw, ShieldAlert } from 'lucide-react';
import { Alert, AlertDescription, AlertTitle } from '@client/components/ui/alert';
import { Button } from '@client/components/ui/button';
import { ADMIN_STRINGS } from '../strings';
import { adminErrorMessage, isPermissionError } from '../utils/errors';

export interface AdminQueryErrorProps {
  error: unknown;
  /** The section's own message for failures other than permission; the error's message when absent. */
  fallback?: string;
  onRetry: () => void;
}

export function AdminQueryError({ error, fallback, onRetry }: AdminQueryErrorProps) {
  if (isPermissionError(error)) {
    return (
      <Alert variant="destructive">
        <AlertTitle className="flex items-center gap-2">
          <ShieldAlert className="size-4" aria-hidden="true" />
          {ADMIN_STRINGS.accessDeniedTitle}
        </AlertTitle>
        <AlertDescription>{ADMIN_STRINGS.accessDeniedText}</AlertDescription>
      </Alert>
    );
  }
  return (
    <Alert variant="destructive" className="flex flex-wrap items-center justify-between gap-3">
      <AlertDescription>{adminErrorMessage(error, fallback)}</AlertDescription>
      <Button variant="outline" size="sm" onClick={onRetry}>
        <RotateCcw aria-hidden="true" />
        {ADMIN_STRINGS.retry}
      </Button>
    </Alert>
  );
}
