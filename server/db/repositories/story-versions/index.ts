// A story's messages under the player's control: versions (edit, select), undo, redo,
// erase and branch. Every change runs in one transaction holding the owner's story row, and only
// while no reply is being written, so a turn never reads half a change and two changes never
// interleave (story-change.ts). Undo and erase set messages aside ('undone', grouped by where the
// cut was) rather than deleting them; redo brings back the group cut last (set-aside.ts). Each use
// case is its own module beside this one; the repository hands them the database.
import type { Db } from '../../client';
import type { Tx } from '../pieces';
import { editMessage, type MessageEdit } from './edit-message';
import { selectVersion, type VersionChoice } from './select-version';
import { changing, shownMessage, type VersionedMessage } from './story-change';
import { canRedo, erase, redo, undo } from './undo-redo-erase';
import { findShown, versionPages, versionsOfMessages } from './version-reads';

export type { ChangeResult, Refusal, VersionedMessage } from './story-change';

export function createStoryVersionsRepository(db: Db) {
  return {
    changing: <T>(
      storyId: number,
      userId: number,
      now: Date,
      work: (tx: Tx, story: { memoryThroughId: number }) => Promise<T>,
    ) => changing(db, storyId, userId, now, work),
    shownMessage,
    undo(storyId: number, userId: number, now: Date) {
      return undo(db, storyId, userId, now);
    },
    redo(storyId: number, userId: number, now: Date) {
      return redo(db, storyId, userId, now);
    },
    canRedo(storyId: number) {
      return canRedo(db, storyId);
    },
    erase(storyId: number, userId: number, fromId: number, now: Date) {
      return erase(db, storyId, userId, fromId, now);
    },
    versionPages(message: VersionedMessage) {
      return versionPages(db, message);
    },
    versionsOfMessages(messageIds: number[]) {
      return versionsOfMessages(db, messageIds);
    },
    findShown(storyId: number, userId: number, messageId: number) {
      return findShown(db, storyId, userId, messageId);
    },
    edit(input: MessageEdit) {
      return editMessage(db, input);
    },
    select(input: VersionChoice) {
      return selectVersion(db, input);
    },
  };
}
export type StoryVersionsRepository = ReturnType<typeof createStoryVersionsRepository>;
