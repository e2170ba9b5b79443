// Signing in by username or email, with failure limits per account and per network (an IPv6 /64
// is one address). The per-account lock must not hand the account to whoever guesses: ten wrong
// passwords from anywhere would otherwise lock the owner out too. So while the account is locked a
// correct password from a network it has signed in from (known-networks.ts) still signs in. A wrong
// one from there is refused like any other guess and counted (per account and per network), so
// someone sharing the owner's network (one IPv4 NAT) gets no more guesses than the per-network
// limit; the per-network lock applies to everyone.
import type { Repositories } from '@server/db/repositories';
import type { AppConfig } from '@server/kernel/config';
import { DomainError, MESSAGES, tooManyRequests } from '@server/kernel/errors';
import type { LoginBody } from '@shared/schemas/auth';
import { ERROR_CODES } from '@shared/schemas/common';
import type { User } from '@shared/schemas/user';
import { ipKey } from '../../limits/request-limits';
import type { Limit, SignInLimiter } from '../../limits/sign-in-limits';
import type { PasswordHasher } from '../passwords';
import { isKnownNetwork, rememberNetwork, type KnownNetworkDeps } from './known-networks';
import { requireUser, toPublicUser, type PublicUserDeps } from './public-user';

export type LoginDeps = PublicUserDeps &
  KnownNetworkDeps & {
    repos: Pick<Repositories, 'users'>;
    config: Pick<AppConfig, 'rateLimits'>;
    signInLimiter: SignInLimiter;
    passwords: Pick<PasswordHasher, 'verify' | 'decoyHash'>;
  };

export async function login(deps: LoginDeps, body: LoginBody, ip: string): Promise<User> {
  const { repos, signInLimiter } = deps;
  const { loginMaxFailures, loginWindowMs } = deps.config.rateLimits;
  const loginByAccount: Limit = { bucket: 'login-account', max: loginMaxFailures, windowMs: loginWindowMs };
  const loginByIp: Limit = { bucket: 'login-ip', max: loginMaxFailures, windowMs: loginWindowMs };
  const network = ipKey(ip);
  const credentials = await repos.users.findCredentialsByLogin(body.username);
  // One counter per account whichever name it is tried by (username or email); unknown names
  // are counted by name. Attempts are counted before the password is checked and taken back
  // when refused or successful, so only failures count and a burst cannot slip under the limit.
  const accountKey = credentials ? `user:${credentials.id}` : `name:${body.username.toLowerCase()}`;
  const [byAccount, byIp] = await Promise.all([
    signInLimiter.take(loginByAccount, accountKey),
    signInLimiter.take(loginByIp, network),
  ]);
  const refuse = (limit: Limit) => {
    signInLimiter.refused(limit);
    return tooManyRequests(MESSAGES.tooManyLogins, loginWindowMs / 1000);
  };
  // A locked account still hears its owner's password from a network it has signed in from.
  if (byIp.over || (byAccount.over && !(credentials && (await isKnownNetwork(deps, credentials.id, network))))) {
    await Promise.all([signInLimiter.forget(byAccount), signInLimiter.forget(byIp)]);
    throw refuse(byIp.over ? loginByIp : loginByAccount);
  }
  const valid = credentials
    ? await deps.passwords.verify(credentials.passwordHash, body.password)
    : (await deps.passwords.verify(await deps.passwords.decoyHash(), body.password)) && false;
  if (!credentials || !valid) {
    // A guess from a known network while locked: counted (both attempts stay) and refused as locked.
    if (byAccount.over) throw refuse(loginByAccount);
    throw new DomainError('unauthenticated', ERROR_CODES.invalidCredentials, MESSAGES.invalidCredentials);
  }
  // A success clears the account's failures, unless it only passed the lock: the guesses
  // against it keep counting, or each of the owner's sign-ins would buy the guesser ten more.
  await Promise.all([
    byAccount.over ? signInLimiter.forget(byAccount) : signInLimiter.reset(loginByAccount, accountKey),
    signInLimiter.forget(byIp),
    rememberNetwork(deps, credentials.id, network),
  ]);
  return toPublicUser(deps, await requireUser(repos, credentials.id));
}
