// Accounts: registration (with captcha and per-IP limit), login by username or email (with
// failure limits per account and per IP), and the account settings changes. Returns the API's
// User shape, never a password hash.
import type { AppConfig } from '@server/config';
import type { Repositories } from '@server/db/repositories';
import type { UsageTotals } from '@server/db/repositories/usage';
import { isUniqueViolation, type UserRecord } from '@server/db/repositories/users';
import { AppError, MESSAGES, tooManyRequests, unauthenticated } from '@server/errors';
import type { ChangePasswordBody, LoginBody, RegisterBody } from '@shared/schemas/auth';
import { ERROR_CODES } from '@shared/schemas/common';
import type { User } from '@shared/schemas/user';
import type { CaptchaService } from './captcha';
import { decoyPasswordHash, hashPassword, verifyPassword } from './passwords';
import type { Limit, RateLimiter } from './rate-limiter';

interface AccountDeps {
  repos: Repositories;
  config: Pick<AppConfig, 'adminUsernames' | 'rateLimits' | 'userMonthlyTokenLimit'>;
  captcha: CaptchaService;
  limiter: RateLimiter;
  now: () => Date;
}

const HOUR_MS = 60 * 60_000;

/** What is left of the monthly allowance; null when there is no limit. */
export function remainingAllowance(limit: number | null, usedThisMonth: number): number | null {
  return limit === null ? null : Math.max(0, limit - usedThisMonth);
}

export function createAccountService({ repos, config, captcha, limiter, now }: AccountDeps) {
  const loginByAccount: Limit = { bucket: 'login-account', max: config.rateLimits.loginMaxFailures, windowMs: config.rateLimits.loginWindowMs };
  const loginByIp: Limit = { bucket: 'login-ip', max: config.rateLimits.loginMaxFailures, windowMs: config.rateLimits.loginWindowMs };
  const registerByIp: Limit = { bucket: 'register-ip', max: config.rateLimits.registerPerHour, windowMs: HOUR_MS };
  const isListedAdmin = (username: string) => config.adminUsernames.includes(username.toLowerCase());

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
  async function guardUnique<T>(write: () => Promise<T>, username: string | null, email: string | null, exceptUserId?: number): Promise<T> {
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
      if (await limiter.isExceeded(registerByIp, ip)) throw tooManyRequests(MESSAGES.tooManyRegistrations, HOUR_MS / 1000);
      const claim = await captcha.claim(captchaToken, body.captchaAnswer);
      if (claim.result !== 'correct') {
        throw new AppError(400, ERROR_CODES.captcha, claim.result === 'wrong' ? MESSAGES.captchaWrong : MESSAGES.captchaMissing);
      }
      let record;
      try {
        await assertUniqueness(body.username, body.email);
        const passwordHash = await hashPassword(body.password);
        record = await guardUnique(
          () => repos.users.insert({ username: body.username, email: body.email, passwordHash, isAdmin: isListedAdmin(body.username) }),
          body.username,
          body.email,
        );
      } catch (error) {
        // A correct captcha survives a taken name, so the player can fix the name without solving again.
        await claim.giveBack();
        throw error;
      }
      await limiter.hit(registerByIp, ip);
      return toPublicUser(record);
    },

    async login(body: LoginBody, ip: string): Promise<User> {
      const credentials = await repos.users.findCredentialsByLogin(body.username);
      // One counter per account whichever name it is tried by (username or email); unknown names
      // are counted by name. Attempts are counted before the password is checked and taken back
      // when refused or successful, so only failures count and a burst cannot slip under the limit.
      const accountKey = credentials ? `user:${credentials.id}` : `name:${body.username.toLowerCase()}`;
      const attempts = await Promise.all([limiter.take(loginByAccount, accountKey), limiter.take(loginByIp, ip)]);
      if (attempts.some((attempt) => attempt.over)) {
        await Promise.all(attempts.map((attempt) => limiter.forget(attempt)));
        throw tooManyRequests(MESSAGES.tooManyLogins, config.rateLimits.loginWindowMs / 1000);
      }
      const valid = credentials
        ? await verifyPassword(credentials.passwordHash, body.password)
        : (await verifyPassword(await decoyPasswordHash(), body.password)) && false;
      if (!credentials || !valid) throw new AppError(401, ERROR_CODES.invalidCredentials, MESSAGES.invalidCredentials);
      await Promise.all([limiter.reset(loginByAccount, accountKey), limiter.forget(attempts[1])]);
      return toPublicUser(await requireUser(credentials.id));
    },

    async changeUsername(userId: number, newUsername: string): Promise<User> {
      const current = await requireUser(userId);
      if (current.username === newUsername) throw new AppError(400, ERROR_CODES.validation, MESSAGES.sameUsername);
      // Admin rights follow ADMIN_USERNAMES; renaming into a listed name would grant them at the next start.
      if (isListedAdmin(newUsername) && !current.isAdmin) throw new AppError(409, ERROR_CODES.conflict, MESSAGES.usernameReserved);
      await assertUniqueness(newUsername, null, userId);
      const updated = await guardUnique(() => repos.users.updateUsername(userId, newUsername), newUsername, null, userId);
      return toPublicUser(updated ?? (await requireUser(userId)));
    },

    /** Verifies the current password and stores the new hash; the caller rotates sessions. */
    async changePassword(userId: number, body: ChangePasswordBody): Promise<void> {
      const credentials = await repos.users.findCredentialsById(userId);
      if (!credentials) throw unauthenticated();
      if (!(await verifyPassword(credentials.passwordHash, body.currentPassword))) {
        throw new AppError(400, ERROR_CODES.invalidCredentials, MESSAGES.currentPasswordWrong);
      }
      await repos.users.updatePasswordHash(userId, await hashPassword(body.newPassword));
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
