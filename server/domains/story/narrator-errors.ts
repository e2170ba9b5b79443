// Turns narrator failures into what the player reads (spec-style sentences, one per failure kind)
// (the log keeps the provider's detail, its key removed by kernel/redact.ts).
import { DomainError, type DomainErrorKind } from '@server/kernel/errors';
import type { NarratorError, NarratorFailure } from '@server/ai/llm/types';
import { ERROR_CODES, type ErrorCode } from '@shared/schemas/common';
import { STORY_MESSAGES } from '@shared/schemas/story';

interface Failure {
  kind: DomainErrorKind;
  code: ErrorCode;
  message: string;
  named: (label: string) => string;
}

const FAILURES: Record<NarratorFailure, Failure> = {
  timeout: {
    kind: 'providerTimeout',
    code: ERROR_CODES.narratorTimeout,
    message: STORY_MESSAGES.timeout,
    named: STORY_MESSAGES.timeoutNamed,
  },
  unavailable: {
    kind: 'providerFailed',
    code: ERROR_CODES.narratorUnavailable,
    message: STORY_MESSAGES.unavailable,
    named: STORY_MESSAGES.unavailableNamed,
  },
  misconfigured: {
    kind: 'providerFailed',
    code: ERROR_CODES.narratorMisconfigured,
    message: STORY_MESSAGES.misconfigured,
    named: STORY_MESSAGES.misconfiguredNamed,
  },
};

/**
 * The player's error for a narrator failure, naming the narrator's id; its label is in the sentence
 * when the player has several narrators to choose from (`named`). `storyId` names a story the failed
 * turn created (retry it there).
 */
export function narratorFailed(
  error: NarratorError,
  narrator: { id: string; label: string; named: boolean },
  storyId?: number,
): DomainError {
  const { kind, code, message, named } = FAILURES[error.failure];
  return new DomainError(kind, code, narrator.named ? named(narrator.label) : message, {
    extra: { narrator: narrator.id, ...(storyId === undefined ? {} : { storyId }) },
  });
}
