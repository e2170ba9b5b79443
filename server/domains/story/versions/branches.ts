// Branching: a copy of the owner's story up to a message, as a new story of theirs titled
// "{title} (branch)", counted against their stories and stored text (checked before the copy and
// again, exactly, as it is written in pieces, one of a player's branches at a time); and a story's
// family, the story it was branched from and those branched from it.
import { fallbackTitle } from '@server/ai/llm/titles';
import type { createOneAtATime } from '@server/kernel/one-at-a-time';
import { STORY_TITLE_MAX_LENGTH } from '@shared/constants';
import type { StoryBranchResponse, StoryFamily } from '@shared/schemas/story-versions';
import { refusedOverQuota } from '../../limits/quotas';
import { notFound } from '../errors';
import { messageMissing } from './change-refusals';
import type { StoryVersionDeps } from './version-deps';

const BRANCH_SUFFIX = ' (branch)';

/** "{title} (branch)" within the title limit: a long title gives up its end, never the suffix. */
export function branchTitle(title: string): string {
  const room = STORY_TITLE_MAX_LENGTH - BRANCH_SUFFIX.length;
  const base = title.length > room ? `${title.slice(0, room - 1).trimEnd()}…` : title;
  return `${base}${BRANCH_SUFFIX}`;
}

/** `oneAtATime`: each player's branches are written one after another (see kernel/one-at-a-time.ts). */
export async function branchStory(
  deps: StoryVersionDeps,
  oneAtATime: ReturnType<typeof createOneAtATime>,
  userId: number,
  storyId: number,
  messageId: number,
): Promise<StoryBranchResponse> {
  const { repos } = deps;
  const story = await repos.stories.findOwned(storyId, userId);
  if (!story) throw notFound();
  const title = branchTitle(story.title ?? fallbackTitle(story.premise));
  // A full account is refused before the copy; the copy checks again, exactly, as it is written.
  await deps.quotas.assertRoom(userId, { story: true, bytes: 0 });
  const { maxStories, maxStoredBytes } = deps.quotas.limits;
  // Written in pieces like an import, so a player's branches are written one after another too.
  const result = await oneAtATime(userId, () =>
    refusedOverQuota(deps.quotas.limits, () =>
      repos.storyBranches.branch({
        storyId,
        userId,
        messageId,
        title,
        now: deps.now(),
        quotas: { maxStories, maxStoredBytes },
      }),
    ),
  );
  if (result === 'missing') throw notFound();
  if (result === 'message') throw messageMissing();
  await deps.flush();
  deps.memoryBank?.index(result, 'all');
  return { storyId: result };
}

export async function storyFamily(
  { repos }: Pick<StoryVersionDeps, 'repos'>,
  userId: number,
  storyId: number,
): Promise<StoryFamily> {
  const family = await repos.storyBranches.family(storyId, userId);
  if (!family) throw notFound();
  const link = (row: { id: number; title: string | null; premise: string }) => ({
    storyId: row.id,
    title: row.title ?? fallbackTitle(row.premise),
  });
  return {
    origin: family.origin ? link(family.origin) : null,
    branches: family.branches.map((row) => ({ ...link(row), createdAt: row.createdAt })),
  };
}
