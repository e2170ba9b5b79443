// Branches: a copy of the owner's story up to one of its messages, as a new story of
// theirs that remembers its origin. The shown messages are copied in pieces (their chosen versions
// become the copy's originals), with the pictures they show, the memory as it stood at that message
// (the fold at or before it), the author's note, the generation settings, the style sheet and the
// story cards (branch.ts, branch-messages.ts); a story's family is read in family.ts.
import type { Db } from '../../client';
import { branchStory, type BranchRequest } from './branch';
import { family } from './family';

export type { StoryLinkRow } from './family';

export function createStoryBranchesRepository(db: Db) {
  return {
    branch(input: BranchRequest) {
      return branchStory(db, input);
    },
    family(storyId: number, userId: number) {
      return family(db, storyId, userId);
    },
  };
}
export type StoryBranchesRepository = ReturnType<typeof createStoryBranchesRepository>;
