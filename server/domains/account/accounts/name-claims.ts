// A username or an email belongs to one account: checked before a write so the player reads which
// one is taken, and a unique-index race (two requests claiming one name at once) is answered with the
// same 409. The names ADMIN_USERNAMES lists carry admin rights, so they are claimed apart.
import type { Repositories } from '@server/db/repositories';
import { isUniqueViolation } from '@server/db/repositories/users';
import { DomainError, MESSAGES } from '@server/kernel/errors';
import { ERROR_CODES } from '@shared/schemas/common';

type Users = Pick<Repositories, 'users'>;

export const isListedAdmin = (adminUsernames: readonly string[], username: string) =>
  adminUsernames.includes(username.toLowerCase());

export async function assertUniqueness(
  { users }: Users,
  username: string | null,
  email: string | null,
  exceptUserId?: number,
): Promise<void> {
  if (username && (await users.isUsernameTaken(username, exceptUserId))) {
    throw new DomainError('conflict', ERROR_CODES.conflict, MESSAGES.usernameTaken);
  }
  if (email && (await users.isEmailTaken(email, exceptUserId))) {
    throw new DomainError('conflict', ERROR_CODES.conflict, MESSAGES.emailTaken);
  }
}

/** Maps a unique-index race (two requests claiming one name) to the same 409 as the pre-check. */
export async function guardUnique<T>(
  repos: Users,
  write: () => Promise<T>,
  username: string | null,
  email: string | null,
  exceptUserId?: number,
): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) await assertUniqueness(repos, username, email, exceptUserId);
    throw error;
  }
}
