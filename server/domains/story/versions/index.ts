// The player in control of a story: undo, redo, erase from here, editing a message,
// its versions and choosing the one shown, and branching. Every change is the owner's only
// (another user's story or message is 404), waits for no reply being written (409 while one is),
// and loses nothing: versions and set-aside turns stay stored and can be brought back.
// This door hands its deps to the use cases: history-moves.ts (undo, redo, erase),
// message-versions.ts (versions, edit, select) and branches.ts (branch, family).
import { createOneAtATime } from '@server/kernel/one-at-a-time';
import type { MessageChangeResponse, MessageEditBody } from '@shared/schemas/story-versions';
import { branchStory, storyFamily } from './branches';
import { erase, redo, undo } from './history-moves';
import { editMessage, messageVersions, selectVersion } from './message-versions';
import type { StoryVersionDeps } from './version-deps';

export { branchTitle } from './branches';

export function createStoryVersionService(deps: StoryVersionDeps) {
  /** Each player's branches are written one after another (see kernel/one-at-a-time.ts). */
  const oneAtATime = createOneAtATime();

  return {
    undo: (userId: number, storyId: number) => undo(deps, userId, storyId),

    redo: (userId: number, storyId: number) => redo(deps, userId, storyId),

    erase: (userId: number, storyId: number, fromMessageId: number) => erase(deps, userId, storyId, fromMessageId),

    /**
     * The message's versions as MessageVersionsResponse's JSON bytes, read a page at a time and
     * written with turns of the event loop between runs (up to 4 MB of text).
     */
    versions: (userId: number, storyId: number, messageId: number) => messageVersions(deps, userId, storyId, messageId),

    /** The owner's edit as a new version; 409 with the version shown now when the editor showed another. */
    edit: (userId: number, storyId: number, messageId: number, body: MessageEditBody): Promise<MessageChangeResponse> =>
      editMessage(deps, userId, storyId, messageId, body),

    select: (userId: number, storyId: number, messageId: number, version: number) =>
      selectVersion(deps, userId, storyId, messageId, version),

    branch: (userId: number, storyId: number, messageId: number) =>
      branchStory(deps, oneAtATime, userId, storyId, messageId),

    family: (userId: number, storyId: number) => storyFamily(deps, userId, storyId),
  };
}
export type StoryVersionService = ReturnType<typeof createStoryVersionService>;
