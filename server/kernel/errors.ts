// The one error type the server's layers below http/ throw: a DomainError says what kind of
// refusal or failure it is (not found, busy, refused by a limit, invalid...), with the API's code,
// the player's sentence and, for a limit, when to try again. Only server/http/ turns a kind into an
// HTTP status and headers (http/error-status.ts), so the domains never choose one; anything that is
// not a DomainError becomes a 500 whose details stay in the log.
import { ERROR_CODES, type ErrorCode } from '@shared/schemas/common';

export type DomainErrorKind =
  /** No such thing, or not the caller's (the same answer, so ids cannot be probed); a picture not painted yet. */
  | 'notFound'
  /** The thing is busy (a reply being written), taken (a username) or changed since it was read. */
  | 'conflict'
  /** Refused by a limit: a rate limit, a quota, the allowance, the account's storage, a size. */
  | 'limited'
  /** Bad input the request's schema could not catch (a wrong captcha or current password, an unknown voice). */
  | 'invalid'
  /** No session, or credentials that do not sign anyone in. */
  | 'unauthenticated'
  /** Signed in, but not allowed (an admin's page, a speech clip kept for another site). */
  | 'forbidden'
  /** A feature switched off, or this server restarting: nothing the caller can fix by asking differently. */
  | 'unavailable'
  /** An outside provider (the narrator, a voice) took too long. */
  | 'providerTimeout'
  /** An outside provider refused or failed. */
  | 'providerFailed'
  /** The work asked about was tried and failed for good (a picture whose painting failed). */
  | 'failedEarlier';

/** Extra fields for the error body (a failed story start names the story it created; a stale edit shows the current version). */
export interface DomainErrorExtra {
  storyId?: number;
  /** The narrator that failed, by its catalogue id. */
  narrator?: string;
  current?: { version: number; content: string };
}

export class DomainError extends Error {
  /** Seconds until the caller may try again (a rate limit, a restart); none when waiting does not help. */
  readonly retryAfterSeconds?: number;
  readonly extra: DomainErrorExtra;

  constructor(
    readonly kind: DomainErrorKind,
    readonly code: ErrorCode,
    message: string,
    options: { retryAfterSeconds?: number; extra?: DomainErrorExtra } = {},
  ) {
    super(message);
    this.name = 'DomainError';
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.extra = options.extra ?? {};
  }
}

export const MESSAGES = {
  authRequired: 'Authentication required',
  invalidCredentials: 'Invalid username or password',
  usernameTaken: 'Username is already taken',
  usernameReserved: 'That username is reserved',
  emailTaken: 'An account with this email already exists',
  captchaWrong: 'Incorrect captcha answer. Please solve the new captcha.',
  captchaMissing: 'The captcha has expired. Please solve the new captcha.',
  currentPasswordWrong: 'Current password is incorrect',
  sameUsername: 'That is already your username',
  tooManyLogins: 'Too many failed login attempts. Please try again later.',
  tooManyRegistrations: 'Too many accounts have been created from this network. Please try again later.',
  tooManyCaptchas: 'Too many captcha requests. Please wait a minute and try again.',
  tooManyUsernameChecks: 'Too many username checks from this network. Please wait a minute and try again.',
  tooManyEmailUpdates: 'Too many email changes from this network. Please try again later.',
  notFound: 'Not found',
  badJson: 'Request body is not valid JSON',
  tooLarge: 'Request body is too large',
  unsupportedMediaType: 'Request body must be JSON (Content-Type: application/json)',
  nulText: 'Text cannot contain the NUL character (U+0000). Remove it and try again.',
  badUrl: 'This address is not valid. Check the link and try again.',
  internal: 'Something went wrong on our side. Please try again.',
  restarting: 'Taleweaver is restarting. Please try again in a few seconds.',
} as const;

/** No session, or one that no longer signs anyone in. */
export const unauthenticated = (message: string = MESSAGES.authRequired) =>
  new DomainError('unauthenticated', ERROR_CODES.unauthenticated, message);

/** A rate limit's refusal: the caller may try again in `retryAfterSeconds`. */
export const tooManyRequests = (message: string, retryAfterSeconds: number) =>
  new DomainError('limited', ERROR_CODES.rateLimited, message, { retryAfterSeconds });
