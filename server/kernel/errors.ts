// The one error type services throw. The error handler turns it into the API's JSON error body
// `{message, code}`; anything else becomes a 500 whose details stay in the log.
import { ERROR_CODES, type ErrorCode } from '@shared/schemas/common';

export class AppError extends Error {
  constructor(
    public readonly statusCode: number,
    public readonly code: ErrorCode,
    message: string,
    public readonly headers: Record<string, string> = {},
    /** Extra fields for the error body (a failed story start names the story it created). */
    public readonly extra: { storyId?: number; current?: { version: number; content: string } } = {},
  ) {
    super(message);
    this.name = 'AppError';
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

export const unauthenticated = (message: string = MESSAGES.authRequired) =>
  new AppError(401, ERROR_CODES.unauthenticated, message);

export const tooManyRequests = (message: string, retryAfterSeconds: number) =>
  new AppError(429, ERROR_CODES.rateLimited, message, {
    'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))),
  });
