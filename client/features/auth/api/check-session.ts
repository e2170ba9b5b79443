// HEAD /api/user: the cheap periodic session check. Only a 401 ends the session;
// a network failure or a 5xx says nothing about the session, so it reads as "unknown".
import { apiHead } from '@client/lib/api-client';

export type SessionCheckResult = 'active' | 'expired' | 'unknown';

export async function checkSession(signal?: AbortSignal): Promise<SessionCheckResult> {
  try {
    const status = await apiHead('/api/user', { signal });
    if (status === 401) return 'expired';
    return status >= 200 && status < 300 ? 'active' : 'unknown';
  } catch {
    return 'unknown';
  }
}
