// A new story: its row and its premise as the first (initial) message, written in one transaction
// with the generation lease already held (the opening reply is written next), and counted against
// the owner's quotas before it commits, so a story past them is never kept.
import type { Db } from '../../client';
import { stories, storyMessages } from '../../schema';
import { assertWithinQuotas, type QuotaCheck } from '../quotas';
import { messageColumns } from '../story-message-reads';
import type { MessageRecord, StoryRecord } from '../story-records';
import { storyColumns } from './story-columns';

export interface NewStory {
  userId: number;
  premise: string;
  now: Date;
  leaseUntil: Date;
  quotas?: QuotaCheck;
  /** The catalogue narrator that writes it; unset: the default. */
  narrator?: string | null;
}

/**
 * Creates the story with its premise as the first (initial) message, already holding the
 * generation lease. With `quotas`, throws QuotaExceeded (and keeps nothing) when the new story
 * takes the account past one (seeding and tools pass none).
 */
export async function createStory(
  db: Db,
  input: NewStory,
): Promise<{ story: StoryRecord; premiseMessage: MessageRecord }> {
  return db.transaction(async (tx) => {
    const [story] = await tx
      .insert(stories)
      .values({
        userId: input.userId,
        premise: input.premise,
        narrator: input.narrator ?? null,
        generatingUntil: input.leaseUntil,
        createdAt: input.now,
        updatedAt: input.now,
      })
      .returning(storyColumns);
    const [premiseMessage] = await tx
      .insert(storyMessages)
      .values({
        storyId: story.id,
        role: 'user',
        content: input.premise,
        turn: 0,
        isInitial: true,
        attempts: 1,
        createdAt: input.now,
      })
      .returning(messageColumns);
    if (input.quotas) await assertWithinQuotas(tx, input.userId, input.quotas);
    return { story, premiseMessage };
  });
}
