// Turns narrator failures into what the player reads (spec-style sentences, one per failure kind)
// (the log keeps the provider's detail, its key removed by kernel/redact.ts).
import { DomainError, type DomainErrorKind } from '@server/kernel/errors';
import type { NarratorError, NarratorFailure } from '@server/ai/llm/types';
import { ERROR_CODES, type ErrorCode } from '@shared/schemas/common';
import { STORY_MESSAGES } from '@shared/schemas/story';

const FAILURES: Record<NarratorFailure, { kind: DomainErrorKind; code: ErrorCode; message: string }> = {
  timeout: { kind: 'providerTimeout', code: ERROR_CODES.narratorTimeout, message: STORY_MESSAGES.timeout },
  unavailable: { kind: 'providerFailed', code: ERROR_CODES.narratorUnavailable, message: STORY_MESSAGES.unavailable },
  misconfigured: {
    kind: 'providerFailed',
    code: ERROR_CODES.narratorMisconfigured,
    message: STORY_MESSAGES.misconfigured,
  },
};

/** The player's error for a narrator failure; `storyId` names a story the failed turn created (retry it there). */
export function narratorFailed(error: NarratorError, storyId?: number): DomainError {
  const { kind, code, message } = FAILURES[error.failure];
  return new DomainError(kind, code, message, { extra: storyId === undefined ? {} : { storyId } });
}
