// Turns narrator failures into what the player reads (spec-style sentences, one per failure kind)
// (the log keeps the provider's detail, its key removed by kernel/redact.ts).
import { AppError } from '@server/kernel/errors';
import type { NarratorError, NarratorFailure } from '@server/ai/llm/types';
import { ERROR_CODES, type ErrorCode } from '@shared/schemas/common';
import { STORY_MESSAGES } from '@shared/schemas/story';

const FAILURES: Record<NarratorFailure, { status: number; code: ErrorCode; message: string }> = {
  timeout: { status: 504, code: ERROR_CODES.narratorTimeout, message: STORY_MESSAGES.timeout },
  unavailable: { status: 502, code: ERROR_CODES.narratorUnavailable, message: STORY_MESSAGES.unavailable },
  misconfigured: { status: 502, code: ERROR_CODES.narratorMisconfigured, message: STORY_MESSAGES.misconfigured },
};

export function narratorAppError(error: NarratorError, storyId?: number): AppError {
  const { status, code, message } = FAILURES[error.failure];
  return new AppError(status, code, message, {}, storyId === undefined ? {} : { storyId });
}
