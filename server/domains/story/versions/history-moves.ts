// Moving through a story's history: undo and redo step its shown turns back and forth, and erase
// sets aside every turn from a message on (the opening stays). Nothing is lost: set-aside turns
// stay stored for redo. Each answers the story's state as current-state would, once durable, and
// has the memory bank take in the passages the move showed or hid.
import { STORY_VERSION_MESSAGES } from '@shared/schemas/story-versions';
import { accepted, conflict, invalid, messageMissing } from './change-refusals';
import type { StoryVersionDeps } from './version-deps';

type MoveDeps = Pick<StoryVersionDeps, 'repos' | 'stateOf' | 'now' | 'flush' | 'memoryBank'>;

async function changed(deps: MoveDeps, storyId: number): Promise<Buffer> {
  const [state] = await Promise.all([deps.stateOf(storyId, false), deps.flush()]);
  // Undo, redo and erase flip passages that exist: the statistics take the flips in.
  deps.memoryBank?.index(storyId, 'statistics');
  return state;
}

export async function undo(deps: MoveDeps, userId: number, storyId: number): Promise<Buffer> {
  if (accepted(await deps.repos.storyVersions.undo(storyId, userId, deps.now())) === 'nothing')
    throw conflict(STORY_VERSION_MESSAGES.nothingToUndo);
  return changed(deps, storyId);
}

export async function redo(deps: MoveDeps, userId: number, storyId: number): Promise<Buffer> {
  if (accepted(await deps.repos.storyVersions.redo(storyId, userId, deps.now())) === 'nothing')
    throw conflict(STORY_VERSION_MESSAGES.nothingToRedo);
  return changed(deps, storyId);
}

export async function erase(deps: MoveDeps, userId: number, storyId: number, fromMessageId: number): Promise<Buffer> {
  const result = accepted(await deps.repos.storyVersions.erase(storyId, userId, fromMessageId, deps.now()));
  if (result === 'message') throw messageMissing();
  if (result === 'opening') throw invalid(STORY_VERSION_MESSAGES.openingKept);
  return changed(deps, storyId);
}
