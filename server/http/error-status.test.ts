// The status of every domain error kind, and of each code that keeps its own within a kind, held
// to the numbers the API has always answered; and Retry-After's whole seconds.
import { describe, expect, it } from 'vitest';
import { DomainError, type DomainErrorKind } from '@server/kernel/errors';
import { ERROR_CODES, type ErrorCode } from '@shared/schemas/common';
import { imagesDisabled } from '@server/domains/images/scene-images';
import { retryAfterOf, statusOf } from './error-status';

const error = (kind: DomainErrorKind, code: ErrorCode = ERROR_CODES.internal, retryAfterSeconds?: number) =>
  new DomainError(kind, code, 'why', { retryAfterSeconds });

describe('statusOf', () => {
  it('answers each kind with its status', () => {
    const statuses: Record<DomainErrorKind, number> = {
      notFound: 404,
      conflict: 409,
      limited: 429,
      invalid: 400,
      unauthenticated: 401,
      forbidden: 403,
      unavailable: 503,
      providerTimeout: 504,
      providerFailed: 502,
      failedEarlier: 422,
    };
    for (const [kind, status] of Object.entries(statuses)) {
      expect([kind, statusOf(error(kind as DomainErrorKind))]).toEqual([kind, status]);
    }
  });

  it('keeps the codes whose status differs from their kind', () => {
    expect(statusOf(error('limited', ERROR_CODES.storageFull))).toBe(413);
    expect(statusOf(error('limited', ERROR_CODES.tooLarge))).toBe(413);
    expect(statusOf(error('limited', ERROR_CODES.rateLimited))).toBe(429);
    expect(statusOf(error('limited', ERROR_CODES.quotaExceeded))).toBe(429);
    expect(statusOf(error('limited', ERROR_CODES.allowanceUsed))).toBe(429);
    expect(statusOf(error('invalid', ERROR_CODES.unsupportedMediaType))).toBe(415);
    expect(statusOf(error('invalid', ERROR_CODES.validation))).toBe(400);
    expect(statusOf(imagesDisabled())).toBe(404);
    expect(statusOf(error('unavailable', ERROR_CODES.ttsDisabled))).toBe(503);
    expect(statusOf(error('unavailable', ERROR_CODES.sttDisabled))).toBe(503);
  });

  it('applies the status of a code only within its kind', () => {
    expect(statusOf(error('invalid', ERROR_CODES.tooLarge))).toBe(400);
    expect(statusOf(error('notFound', ERROR_CODES.unsupportedMediaType))).toBe(404);
    expect(statusOf(error('unavailable', ERROR_CODES.storageFull))).toBe(503);
  });

  it('tells the two wrong passwords apart by kind: signing in is 401, a change of password 400', () => {
    expect(statusOf(error('unauthenticated', ERROR_CODES.invalidCredentials))).toBe(401);
    expect(statusOf(error('invalid', ERROR_CODES.invalidCredentials))).toBe(400);
  });
});

describe('retryAfterOf', () => {
  it('is whole seconds rounded up, at least one, and absent when the error names no wait', () => {
    expect(retryAfterOf(error('limited', ERROR_CODES.rateLimited, 60))).toBe('60');
    expect(retryAfterOf(error('limited', ERROR_CODES.rateLimited, 0.2))).toBe('1');
    expect(retryAfterOf(error('limited', ERROR_CODES.rateLimited, 0))).toBe('1');
    expect(retryAfterOf(error('limited', ERROR_CODES.rateLimited, 899.01))).toBe('900');
    expect(retryAfterOf(error('unavailable', ERROR_CODES.unavailable, 5))).toBe('5');
    expect(retryAfterOf(error('limited', ERROR_CODES.quotaExceeded))).toBeUndefined();
  });
});
