// How a refused change to a story's versions is answered: the repository's refusal words turned
// into the domain errors every version use case shares (not found for another's story or message,
// a conflict while a reply is being written or nothing is left to move to, invalid for a bad change).
import type { ChangeResult } from '@server/db/repositories/story-versions';
import { DomainError } from '@server/kernel/errors';
import { ERROR_CODES } from '@shared/schemas/common';
import { STORY_MESSAGES } from '@shared/schemas/story';
import { notFound, storyBusy } from '../errors';

export const messageMissing = () => new DomainError('notFound', ERROR_CODES.notFound, STORY_MESSAGES.messageNotFound);
export const conflict = (message: string) => new DomainError('conflict', ERROR_CODES.conflict, message);
export const invalid = (message: string) => new DomainError('invalid', ERROR_CODES.validation, message);

/** Turns a refused change into its domain error; answers the result otherwise. */
export function accepted<T>(result: ChangeResult<T>): T {
  if (result === 'missing') throw notFound();
  if (result === 'busy') throw storyBusy();
  return result;
}
