// How a refused change to a story's versions is answered: the repository's refusal words turned
// into the HTTP errors every version use case shares (404 for another's story or message, 409
// while a reply is being written or nothing is left to move to, 400 for an invalid change).
import type { ChangeResult } from '@server/db/repositories/story-versions';
import { AppError } from '@server/kernel/errors';
import { ERROR_CODES } from '@shared/schemas/common';
import { STORY_MESSAGES } from '@shared/schemas/story';
import { notFound, storyBusy } from '../errors';

export const messageMissing = () => new AppError(404, ERROR_CODES.notFound, STORY_MESSAGES.messageNotFound);
export const conflict = (message: string) => new AppError(409, ERROR_CODES.conflict, message);
export const invalid = (message: string) => new AppError(400, ERROR_CODES.validation, message);

/** Turns a refused change into its HTTP error; answers the result otherwise. */
export function accepted<T>(result: ChangeResult<T>): T {
  if (result === 'missing') throw notFound();
  if (result === 'busy') throw storyBusy();
  return result;
}
