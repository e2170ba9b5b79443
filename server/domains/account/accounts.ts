// Accounts: registration (with captcha and per-IP limit), login by username or email (with
// failure limits per account and per IP), and the account settings changes. Returns the API's
// User shape, never a password hash. Every per-IP count keys on ipKey (an IPv6 /64 is one address).
//
// The per-account lock must not hand the account to whoever guesses: ten wrong passwords from
// anywhere would otherwise lock the owner out too. So the networks an account has signed in from
// are remembered (repositories/known-networks.ts), and while the account is locked a correct
// password from one of them still signs in. A wrong one from there is refused like any other
// guess and counted (per account and per IP), so someone sharing the owner's network (one IPv4
// NAT) gets no more guesses than the per-IP limit; the per-IP lock applies to everyone.
import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from '@server/kernel/config';
import type { Repositories } from '@server/db/repositories';
import type { UsageTotals } from '@server/db/repositories/usage';
import { isUniqueViolation, type UserRecord } from '@server/db/repositories/users';
import { costUsd } from '@server/kernel/cost';
import { AppError, MESSAGES, tooManyRequests, unauthenticated } from '@server/kernel/errors';
import type { ChangePasswordBody, LoginBody, RegisterBody } from '@shared/schemas/auth';
import { ERROR_CODES } from '@shared/schemas/common';
import type { User } from '@shared/schemas/user';
import type { CaptchaService } from './captcha';
import { decoyPasswordHash, hashPassword, verifyPassword } from './passwords';
import type { Limit, SignInLimiter } from '../limits/sign-in-limits';
import { ipKey } from '../limits/request-limits';

interface AccountDeps {
  repos: Repositories;
  config: Pick<AppConfig, 'adminUsernames' | 'rateLimits' | 'userMonthlyTokenLimit'> & {
    llm: Pick<AppConfig['llm'], 'prices'>;
  };
  captcha: CaptchaService;
  signInLimiter: SignInLimiter;
  now: () => Date;
  /** Where a network that could not be remembered is reported (the sign-in goes on). */
  log?: Pick<FastifyBaseLogger, 'warn'>;
}

const HOUR_MS = 60 * 60_000;
const NOTHING_SPENT: UsageTotals = {
  textTokens: 0,
  imageTokens: 0,
  thisMonth: 0,
  allowanceUsed: 0,
  month: { input: 0, cachedInput: 0, output: 0, image: 0 },
};
/** Networks remembered per account: a few homes, workplaces and phones' carriers. */
export const KNOWN_NETWORKS_PER_ACCOUNT = 10;
/** How long a network stays known after its last successful sign-in. */
export const KNOWN_NETWORK_MAX_AGE_MS = 180 * 24 * HOUR_MS;

/** What is left of the monthly allowance; null when there is no limit. */
export function remainingAllowance(limit: number | null, usedThisMonth: number): number | null {
  return limit === null ? null : Math.max(0, limit - usedThisMonth);
}

export function createAccountService({ repos, config, captcha, signInLimiter, now, log }: AccountDeps) {
  const loginByAccount: Limit = {
    bucket: 'login-account',
    max: config.rateLimits.loginMaxFailures,
    windowMs: config.rateLimits.loginWindowMs,
  };
  const loginByIp: Limit = {
    bucket: 'login-ip',
    max: config.rateLimits.loginMaxFailures,
    windowMs: config.rateLimits.loginWindowMs,
  };
  const registerByIp: Limit = { bucket: 'register-ip', max: config.rateLimits.registerPerHour, windowMs: HOUR_MS };
  const isListedAdmin = (username: string) => config.adminUsernames.includes(username.toLowerCase());
  /**
   * Runs once the sign-in (or the new account) already exists, so it never turns that success into
   * an error: a network not remembered only means one lock fewer to pass later.
   */
  const rememberNetwork = (userId: number, network: string, keep = KNOWN_NETWORKS_PER_ACCOUNT) =>
    repos.knownNetworks.remember(userId, network, now(), keep).catch((error: unknown) => {
      log?.warn({ err: error, userId }, 'could not remember the network of a sign-in');
    });
  const isKnownNetwork = (userId: number, network: string) =>
    repos.knownNetworks.isKnown(userId, network, new Date(now().getTime() - KNOWN_NETWORK_MAX_AGE_MS));

  async function toPublicUser(record: UserRecord, known?: UsageTotals): Promise<User> {
    const usage = known ?? (await repos.usage.totalsForUser(record.id, now()));
    return {
      id: record.id,
      username: record.username,
      email: record.email,
      isAdmin: record.isAdmin,
      createdAt: record.createdAt.toISOString(),
      lastActive: record.lastActive?.toISOString() ?? null,
      tokenUsage: {
        textTokens: usage.textTokens,
        imageTokens: usage.imageTokens,
        total: usage.textTokens + usage.imageTokens,
        thisMonth: usage.thisMonth,
        balance: remainingAllowance(config.userMonthlyTokenLimit, usage.allowanceUsed),
        // Priced by the same function as the admin's figures and each reply's cost.
        monthCostUsd: costUsd(usage.month, config.llm.prices),
      },
    };
  }

  async function requireUser(userId: number): Promise<UserRecord> {
    const record = await repos.users.findById(userId);
    if (!record) throw unauthenticated();
    return record;
  }

  async function assertUniqueness(username: string | null, email: string | null, exceptUserId?: number) {
    if (username && (await repos.users.isUsernameTaken(username, exceptUserId))) {
      throw new AppError(409, ERROR_CODES.conflict, MESSAGES.usernameTaken);
    }
    if (email && (await repos.users.isEmailTaken(email, exceptUserId))) {
      throw new AppError(409, ERROR_CODES.conflict, MESSAGES.emailTaken);
    }
  }

  /** Maps a unique-index race (two requests claiming one name) to the same 409 as the pre-check. */
  async function guardUnique<T>(
    write: () => Promise<T>,
    username: string | null,
    email: string | null,
    exceptUserId?: number,
  ): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (isUniqueViolation(error)) await assertUniqueness(username, email, exceptUserId);
      throw error;
    }
  }

  return {
    toPublicUser,

    async getUser(userId: number): Promise<User> {
      return toPublicUser(await requireUser(userId));
    },

    async isUsernameAvailable(username: string): Promise<boolean> {
      return !(await repos.users.isUsernameTaken(username));
    },

    async register(body: RegisterBody, captchaToken: string | undefined, ip: string): Promise<User> {
      const network = ipKey(ip);
      if (await signInLimiter.isExceeded(registerByIp, network))
        throw tooManyRequests(MESSAGES.tooManyRegistrations, HOUR_MS / 1000);
      const claim = await captcha.claim(captchaToken, body.captchaAnswer);
      if (claim.result !== 'correct') {
        throw new AppError(
          400,
          ERROR_CODES.captcha,
          claim.result === 'wrong' ? MESSAGES.captchaWrong : MESSAGES.captchaMissing,
        );
      }
      let record;
      try {
        await assertUniqueness(body.username, body.email);
        const passwordHash = await hashPassword(body.password);
        record = await guardUnique(
          () =>
            repos.users.insert({
              username: body.username,
              email: body.email,
              passwordHash,
              isAdmin: isListedAdmin(body.username),
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
      await Promise.all([signInLimiter.hit(registerByIp, network), rememberNetwork(record.id, network)]);
      // A new account has spent nothing: no need to read its usage.
      return toPublicUser(record, NOTHING_SPENT);
    },

    async login(body: LoginBody, ip: string): Promise<User> {
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
        return tooManyRequests(MESSAGES.tooManyLogins, config.rateLimits.loginWindowMs / 1000);
      };
      // A locked account still hears its owner's password from a network it has signed in from.
      if (byIp.over || (byAccount.over && !(credentials && (await isKnownNetwork(credentials.id, network))))) {
        await Promise.all([signInLimiter.forget(byAccount), signInLimiter.forget(byIp)]);
        throw refuse(byIp.over ? loginByIp : loginByAccount);
      }
      const valid = credentials
        ? await verifyPassword(credentials.passwordHash, body.password)
        : (await verifyPassword(await decoyPasswordHash(), body.password)) && false;
      if (!credentials || !valid) {
        // A guess from a known network while locked: counted (both attempts stay) and refused as locked.
        if (byAccount.over) throw refuse(loginByAccount);
        throw new AppError(401, ERROR_CODES.invalidCredentials, MESSAGES.invalidCredentials);
      }
      // A success clears the account's failures, unless it only passed the lock: the guesses
      // against it keep counting, or each of the owner's sign-ins would buy the guesser ten more.
      await Promise.all([
        byAccount.over ? signInLimiter.forget(byAccount) : signInLimiter.reset(loginByAccount, accountKey),
        signInLimiter.forget(byIp),
        rememberNetwork(credentials.id, network),
      ]);
      return toPublicUser(await requireUser(credentials.id));
    },

    async changeUsername(userId: number, newUsername: string): Promise<User> {
      const current = await requireUser(userId);
      if (current.username === newUsername) throw new AppError(400, ERROR_CODES.validation, MESSAGES.sameUsername);
      // Admin rights follow ADMIN_USERNAMES; renaming into a listed name would grant them at the next start.
      if (isListedAdmin(newUsername) && !current.isAdmin)
        throw new AppError(409, ERROR_CODES.conflict, MESSAGES.usernameReserved);
      await assertUniqueness(newUsername, null, userId);
      const updated = await guardUnique(
        () => repos.users.updateUsername(userId, newUsername),
        newUsername,
        null,
        userId,
      );
      return toPublicUser(updated ?? (await requireUser(userId)));
    },

    /**
     * Verifies the current password and stores the new hash; the caller rotates sessions. Only
     * this request's network stays known: a password changed because it leaked should not leave
     * the networks of whoever used it able to pass a lock.
     */
    async changePassword(userId: number, body: ChangePasswordBody, ip: string): Promise<void> {
      const credentials = await repos.users.findCredentialsById(userId);
      if (!credentials) throw unauthenticated();
      if (!(await verifyPassword(credentials.passwordHash, body.currentPassword))) {
        throw new AppError(400, ERROR_CODES.invalidCredentials, MESSAGES.currentPasswordWrong);
      }
      await repos.users.updatePasswordHash(userId, await hashPassword(body.newPassword));
      await rememberNetwork(userId, ipKey(ip), 1);
    },

    async updateEmail(userId: number, email: string): Promise<User> {
      await requireUser(userId);
      await assertUniqueness(null, email, userId);
      const updated = await guardUnique(() => repos.users.updateEmail(userId, email), null, email, userId);
      return toPublicUser(updated ?? (await requireUser(userId)));
    },
  };
}
export type AccountService = ReturnType<typeof createAccountService>;
