// The story bible's rows (db/schema/bible.ts): the facts a story shows (those of its shown
// messages), facts added by a fold, a player's edit or deletion, and the cap on a story's facts.
// Every read is of one story's facts, which the cap bounds, joined with its messages so that a fact
// of an undone or erased turn is never read.
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { storyFacts } from '../schema';
import { executePrepared } from './prepared';

/** A fact as the story shows it. */
export interface StoredFact {
  id: number;
  messageId: number;
  turn: number;
  entity: string;
  attribute: string;
  value: string;
  pinned: boolean;
}

export interface NewFact {
  messageId: number;
  turn: number;
  entity: string;
  attribute: string;
  value: string;
  pinned: boolean;
}

export type FactChange = Partial<Pick<StoredFact, 'entity' | 'attribute' | 'value' | 'pinned'>>;

export function createStoryBibleRepository(db: Db) {
  return {
    /** The facts of the story's shown messages, oldest turn first. */
    async shown(storyId: number): Promise<StoredFact[]> {
      // Prepared: every turn that may recall reads it.
      return executePrepared<StoredFact>(
        db,
        'story_bible_shown',
        sql`select f.id, f.message_id as "messageId", f.turn, f.entity, f.attribute, f.value, f.pinned
          from story_facts f join story_messages m on m.id = f.message_id and m.state = 'shown'
          where f.story_id = ${storyId} order by f.turn, f.id`,
      );
    },

    /**
     * Adds facts, then keeps the story within `max` facts: the first to go are those of undone
     * turns, then the oldest unpinned ones. A fact another write holds (the player editing or
     * deleting it, its message being deleted) is left for the next save to drop: the insert has
     * taken the player's stats row (stored bytes), and that write, holding the fact, may be waiting
     * for the stats row itself.
     */
    async add(storyId: number, facts: NewFact[], now: Date, max: number): Promise<void> {
      if (facts.length === 0) return;
      await db.transaction(async (tx) => {
        await tx.insert(storyFacts).values(facts.map((fact) => ({ ...fact, storyId, createdAt: now })));
        await tx.execute(
          sql`delete from story_facts where id in (
            select id from story_facts where id in (
              select f.id from story_facts f left join story_messages m on m.id = f.message_id and m.state = 'shown'
              where f.story_id = ${storyId}
              order by (m.id is not null) desc, f.pinned desc, f.turn desc, f.id desc offset ${max})
            for update skip locked)`,
        );
      });
    },

    async change(storyId: number, factId: number, change: FactChange): Promise<void> {
      if (Object.keys(change).length === 0) return;
      await db
        .update(storyFacts)
        .set(change)
        .where(and(eq(storyFacts.storyId, storyId), eq(storyFacts.id, factId)));
    },

    async remove(storyId: number, factIds: number[]): Promise<void> {
      if (factIds.length === 0) return;
      await db.delete(storyFacts).where(and(eq(storyFacts.storyId, storyId), inArray(storyFacts.id, factIds)));
    },
  };
}
export type StoryBibleRepository = ReturnType<typeof createStoryBibleRepository>;
