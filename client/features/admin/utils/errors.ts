// What the dashboard says when a request fails: any error naming 'Admin access
// required' or 'Authentication required' means the viewer may not see the panel (a session that
// expired or lost its admin flag since the page opened), so it gets the permission message; the
// usage card's other failures read 'Failed to load API usage data'.
import { errorMessage } from '@client/lib/api-client';
import { ADMIN_STRINGS } from '../strings';

const PERMISSION_MARKERS = ['Admin access required', 'Authentication required'] as const;

export function isPermissionError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return PERMISSION_MARKERS.some((marker) => error.message.includes(marker));
}

/** The message for a failed admin request, with `fallback` for failures other than permission. */
export function adminErrorMessage(error: unknown, fallback?: string): string {
  if (isPermissionError(error)) return ADMIN_STRINGS.accessDeniedText;
  return fallback ?? errorMessage(error, ADMIN_STRINGS.errorTitle);
}

/** The usage card's message: the permission text, else the spec's 'Failed to load API usage data'. */
export function apiUsageErrorMessage(error: unknown): string {
  return adminErrorMessage(error, ADMIN_STRINGS.usageFailed);
}
