// Signing up: limited per network (an IPv6 /64 is one address) and behind the captcha, the name and
// email checked free, the password hashed, admin rights from ADMIN_USERNAMES. Signing up signs in,
// so the network it came from is remembered as the owner's.
import type { Repositories } from '@server/db/repositories';
import type { AppConfig } from '@server/kernel/config';
import { DomainError, MESSAGES, tooManyRequests } from '@server/kernel/errors';
import type { RegisterBody } from '@shared/schemas/auth';
import { ERROR_CODES } from '@shared/schemas/common';
import type { User } from '@shared/schemas/user';
import { ipKey } from '../../limits/request-limits';
import type { Limit, SignInLimiter } from '../../limits/sign-in-limits';
import type { CaptchaService } from '../captcha';
import type { PasswordHasher } from '../passwords';
import { rememberNetwork, type KnownNetworkDeps } from './known-networks';
import { assertUniqueness, guardUnique, isListedAdmin } from './name-claims';
import { NOTHING_SPENT, toPublicUser, type PublicUserDeps } from './public-user';

export type RegisterDeps = PublicUserDeps &
  KnownNetworkDeps & {
    repos: Pick<Repositories, 'users'>;
    config: Pick<AppConfig, 'adminUsernames' | 'rateLimits'>;
    captcha: Pick<CaptchaService, 'claim'>;
    signInLimiter: SignInLimiter;
    passwords: Pick<PasswordHasher, 'hash'>;
  };

const HOUR_MS = 60 * 60_000;

export async function register(
  deps: RegisterDeps,
  body: RegisterBody,
  captchaToken: string | undefined,
  ip: string,
): Promise<User> {
  const { repos, signInLimiter } = deps;
  const registerByIp: Limit = { bucket: 'register-ip', max: deps.config.rateLimits.registerPerHour, windowMs: HOUR_MS };
  const network = ipKey(ip);
  if (await signInLimiter.isExceeded(registerByIp, network))
    throw tooManyRequests(MESSAGES.tooManyRegistrations, HOUR_MS / 1000);
  const claim = await deps.captcha.claim(captchaToken, body.captchaAnswer);
  if (claim.result !== 'correct') {
    throw new DomainError(
      'invalid',
      ERROR_CODES.captcha,
      claim.result === 'wrong' ? MESSAGES.captchaWrong : MESSAGES.captchaMissing,
    );
  }
  let record;
  try {
    await assertUniqueness(repos, body.username, body.email);
    const passwordHash = await deps.passwords.hash(body.password);
    record = await guardUnique(
      repos,
      () =>
        repos.users.insert({
          username: body.username,
          email: body.email,
          passwordHash,
          isAdmin: isListedAdmin(deps.config.adminUsernames, body.username),
        }),
      body.username,
      body.email,
    );
  } catch (error) {
    // A correct captcha survives a taken name, so the player can fix the name without solving again.
    await claim.giveBack();
    throw error;
  }
  // Signing up signs in: the network it came from is the owner's.
  await Promise.all([signInLimiter.hit(registerByIp, network), rememberNetwork(deps, record.id, network)]);
  // A new account has spent nothing: no need to read its usage.
  return toPublicUser(deps, record, NOTHING_SPENT);
}
