// The owner's story row itself: finding it, and the player's changes to its own fields (the
// generation settings, the memory panel's premise, memory and notes) and the title given to it.
// The memory panel's save is refused ('busy') while a reply is being written.
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../client';
import { stories } from '../../schema';
import { MAX_ID } from '../sql-values';
import type { StoryRecord } from '../story-records';
import { storyColumns } from './story-columns';

export interface SettingsChange {
  storyId: number;
  userId: number;
  replyLength?: StoryRecord['replyLength'];
  temperature?: number;
  /** A narrator id the domain checked against the catalogue. */
  narrator?: string;
}

export interface MemoryPanelSave {
  storyId: number;
  userId: number;
  now: Date;
  premise?: string;
  memory?: string;
  notes?: string;
}

export async function findOwned(db: Db, storyId: number, userId: number): Promise<StoryRecord | null> {
  if (storyId > MAX_ID) return null;
  const [row] = await db
    .select(storyColumns)
    .from(stories)
    .where(and(eq(stories.id, storyId), eq(stories.userId, userId), eq(stories.importing, false)));
  return row ?? null;
}

/** Changes the owner's story's generation settings given (each absent one stays); null when it is not theirs. */
export async function updateSettings(db: Db, input: SettingsChange): Promise<StoryRecord | null> {
  if (input.storyId > MAX_ID) return null;
  const [row] = await db
    .update(stories)
    .set({
      replyLength: input.replyLength ?? sql`${stories.replyLength}`,
      temperature: input.temperature ?? sql`${stories.temperature}`,
      narrator: input.narrator ?? sql`${stories.narrator}`,
    })
    .where(and(eq(stories.id, input.storyId), eq(stories.userId, input.userId), eq(stories.importing, false)))
    .returning(storyColumns);
  return row ?? null;
}

/**
 * The story memory panel's save: the pinned premise, the memory (as stored: its chunks joined)
 * and the notes, each only when given, unless a reply is being written. 'missing' when the story
 * is not the owner's.
 */
export async function updateMemory(db: Db, input: MemoryPanelSave): Promise<StoryRecord | 'busy' | 'missing'> {
  if (input.storyId > MAX_ID) return 'missing';
  const [row] = await db
    .update(stories)
    .set({
      premise: input.premise ?? sql`${stories.premise}`,
      memory: input.memory ?? sql`${stories.memory}`,
      notes: input.notes ?? sql`${stories.notes}`,
    })
    .where(
      and(
        eq(stories.id, input.storyId),
        eq(stories.userId, input.userId),
        or(isNull(stories.generatingUntil), lt(stories.generatingUntil, input.now)),
      ),
    )
    .returning(storyColumns);
  if (row) return row;
  const [owned] = await db
    .select({ id: stories.id })
    .from(stories)
    .where(and(eq(stories.id, input.storyId), eq(stories.userId, input.userId)));
  return owned ? 'busy' : 'missing';
}

export async function setTitle(db: Db, storyId: number, title: string): Promise<void> {
  await db.update(stories).set({ title }).where(eq(stories.id, storyId));
}
