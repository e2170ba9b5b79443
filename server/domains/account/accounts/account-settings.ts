// The account settings a player changes on their account page: the username (never into a name
// ADMIN_USERNAMES lists, which would grant admin rights at the next start), the email, and the
// password (the current one first; the caller rotates the sessions).
import type { Repositories } from '@server/db/repositories';
import type { AppConfig } from '@server/kernel/config';
import { DomainError, MESSAGES, unauthenticated } from '@server/kernel/errors';
import type { ChangePasswordBody } from '@shared/schemas/auth';
import { ERROR_CODES } from '@shared/schemas/common';
import type { User } from '@shared/schemas/user';
import { ipKey } from '../../limits/request-limits';
import type { PasswordHasher } from '../passwords';
import { rememberNetwork, type KnownNetworkDeps } from './known-networks';
import { assertUniqueness, guardUnique, isListedAdmin } from './name-claims';
import { requireUser, toPublicUser, type PublicUserDeps } from './public-user';

export type SettingsDeps = PublicUserDeps &
  KnownNetworkDeps & {
    repos: Pick<Repositories, 'users'>;
    config: Pick<AppConfig, 'adminUsernames'>;
    passwords: Pick<PasswordHasher, 'hash' | 'verify'>;
  };

export async function changeUsername(deps: SettingsDeps, userId: number, newUsername: string): Promise<User> {
  const { repos } = deps;
  const current = await requireUser(repos, userId);
  if (current.username === newUsername) throw new DomainError('invalid', ERROR_CODES.validation, MESSAGES.sameUsername);
  // Admin rights follow ADMIN_USERNAMES; renaming into a listed name would grant them at the next start.
  if (isListedAdmin(deps.config.adminUsernames, newUsername) && !current.isAdmin)
    throw new DomainError('conflict', ERROR_CODES.conflict, MESSAGES.usernameReserved);
  await assertUniqueness(repos, newUsername, null, userId);
  const updated = await guardUnique(
    repos,
    () => repos.users.updateUsername(userId, newUsername),
    newUsername,
    null,
    userId,
  );
  return toPublicUser(deps, updated ?? (await requireUser(repos, userId)));
}

/**
 * Verifies the current password and stores the new hash; the caller rotates sessions. Only
 * this request's network stays known: a password changed because it leaked should not leave
 * the networks of whoever used it able to pass a lock.
 */
export async function changePassword(
  deps: SettingsDeps,
  userId: number,
  body: ChangePasswordBody,
  ip: string,
): Promise<void> {
  const { repos } = deps;
  const credentials = await repos.users.findCredentialsById(userId);
  if (!credentials) throw unauthenticated();
  if (!(await deps.passwords.verify(credentials.passwordHash, body.currentPassword))) {
    throw new DomainError('invalid', ERROR_CODES.invalidCredentials, MESSAGES.currentPasswordWrong);
  }
  await repos.users.updatePasswordHash(userId, await deps.passwords.hash(body.newPassword));
  await rememberNetwork(deps, userId, ipKey(ip), 1);
}

export async function updateEmail(deps: SettingsDeps, userId: number, email: string): Promise<User> {
  const { repos } = deps;
  await requireUser(repos, userId);
  await assertUniqueness(repos, null, email, userId);
  const updated = await guardUnique(repos, () => repos.users.updateEmail(userId, email), null, email, userId);
  return toPublicUser(deps, updated ?? (await requireUser(repos, userId)));
}
