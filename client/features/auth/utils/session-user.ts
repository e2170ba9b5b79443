// A cheap structural check of GET /api/user's answer. The app shell makes this call on every page
// load; validating it with the shared zod schema would put zod (about 25 KB gzip) on the home
// route's critical path, so the shell checks the fields it relies on and trusts the shared type.
// Login, register and settings answers, read in lazily loaded chunks, use the full zod schema.
import type { User } from '@shared/schemas/user';
import type { ResponseSchema } from '@client/lib/api-client';

function isSessionUser(data: unknown): data is User {
  if (typeof data !== 'object' || data === null) return false;
  const user = data as Record<string, unknown>;
  return (
    typeof user.id === 'number' &&
    typeof user.username === 'string' &&
    typeof user.isAdmin === 'boolean' &&
    (user.email === null || typeof user.email === 'string') &&
    typeof user.createdAt === 'string' &&
    typeof user.tokenUsage === 'object' &&
    user.tokenUsage !== null
  );
}

export const sessionUserSchema: ResponseSchema<User> = {
  parse(data) {
    if (!isSessionUser(data)) throw new TypeError('Unexpected user shape');
    return data;
  },
};
