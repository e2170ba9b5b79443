// The story domain's refusals, shared by its services (and sharing's, which reads stories).
import { DomainError } from '@server/kernel/errors';
import { ERROR_CODES } from '@shared/schemas/common';
import { STORY_MESSAGES } from '@shared/schemas/story';

/** Not the player's story, or no such story: the same answer, so ids cannot be probed. */
export const notFound = () => new DomainError('notFound', ERROR_CODES.notFound, STORY_MESSAGES.storyNotFound);
/** A change to a story while its reply is being written. */
export const storyBusy = () => new DomainError('conflict', ERROR_CODES.conflict, STORY_MESSAGES.busy);
