// The one place a domain's error becomes HTTP: a DomainError's kind picks its status, and a few
// codes within a kind keep the status the API has always answered for them (a full account or a
// body too large is 413, not 429; an audio type refused is 415). The error handler
// (plugins/errors.ts) answers through here; the story stream's `error` frame carries the same body
// and no status.
import type { DomainError, DomainErrorKind } from '@server/kernel/errors';
import { ERROR_CODES, type ErrorCode } from '@shared/schemas/common';

const STATUS_OF_KIND: Record<DomainErrorKind, number> = {
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

/** Codes whose status differs from their kind's, each within the one kind it belongs to. */
const STATUS_OF_CODE: Partial<Record<DomainErrorKind, Partial<Record<ErrorCode, number>>>> = {
  limited: { [ERROR_CODES.storageFull]: 413, [ERROR_CODES.tooLarge]: 413 },
  invalid: { [ERROR_CODES.unsupportedMediaType]: 415 },
};

export function statusOf(error: Pick<DomainError, 'kind' | 'code'>): number {
  return STATUS_OF_CODE[error.kind]?.[error.code] ?? STATUS_OF_KIND[error.kind];
}

/** The Retry-After header's value (whole seconds, at least 1), or undefined when waiting does not help. */
export function retryAfterOf(error: Pick<DomainError, 'retryAfterSeconds'>): string | undefined {
  const seconds = error.retryAfterSeconds;
  return seconds === undefined ? undefined : String(Math.max(1, Math.ceil(seconds)));
}
