// Accounts: registration (with captcha and per-IP limit), login by username or email (with
// failure limits per account and per IP, passed by the owner from a network they signed in from),
// and the account settings changes. Returns the API's User shape, never a password hash. Every
// per-IP count keys on ipKey (an IPv6 /64 is one address). Each use case is its own module
// (register.ts, login.ts, account-settings.ts); this door hands them the account's dependencies.
import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from '@server/kernel/config';
import type { Repositories } from '@server/db/repositories';
import type { UsageTotals } from '@server/db/repositories/usage';
import type { UserRecord } from '@server/db/repositories/users';
import type { ChangePasswordBody, LoginBody, RegisterBody } from '@shared/schemas/auth';
import type { User } from '@shared/schemas/user';
import type { CaptchaService } from '../captcha';
import type { SignInLimiter } from '../../limits/sign-in-limits';
import type { PasswordHasher } from '../passwords';
import { changePassword, changeUsername, updateEmail } from './account-settings';
import { login } from './login';
import { requireUser, toPublicUser } from './public-user';
import { register } from './register';

export { KNOWN_NETWORK_MAX_AGE_MS, KNOWN_NETWORKS_PER_ACCOUNT } from './known-networks';
export { remainingAllowance } from './public-user';

interface AccountDeps {
  repos: Repositories;
  config: Pick<AppConfig, 'adminUsernames' | 'rateLimits' | 'userMonthlyTokenLimit'> & {
    llm: Pick<AppConfig['llm'], 'prices'>;
  };
  captcha: CaptchaService;
  signInLimiter: SignInLimiter;
  passwords: PasswordHasher;
  now: () => Date;
  /** Where a network that could not be remembered is reported (the sign-in goes on). */
  log?: Pick<FastifyBaseLogger, 'warn'>;
}

export function createAccountService(deps: AccountDeps) {
  const { repos } = deps;
  return {
    toPublicUser: (record: UserRecord, known?: UsageTotals): Promise<User> => toPublicUser(deps, record, known),

    async getUser(userId: number): Promise<User> {
      return toPublicUser(deps, await requireUser(repos, userId));
    },

    async isUsernameAvailable(username: string): Promise<boolean> {
      return !(await repos.users.isUsernameTaken(username));
    },

    register: (body: RegisterBody, captchaToken: string | undefined, ip: string): Promise<User> =>
      register(deps, body, captchaToken, ip),

    login: (body: LoginBody, ip: string): Promise<User> => login(deps, body, ip),

    changeUsername: (userId: number, newUsername: string): Promise<User> => changeUsername(deps, userId, newUsername),

    /** Verifies the current password and stores the new hash; the caller rotates sessions (account-settings.ts). */
    changePassword: (userId: number, body: ChangePasswordBody, ip: string): Promise<void> =>
      changePassword(deps, userId, body, ip),

    updateEmail: (userId: number, email: string): Promise<User> => updateEmail(deps, userId, email),
  };
}
export type AccountService = ReturnType<typeof createAccountService>;
