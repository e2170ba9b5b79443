// A player's action going into the story: a turn's in one statement with the lease and the window
// it is answered from (it sits on the time-to-first-word path), seeding's and tools' as a plain
// append, and the count of generations an action has had (its attempts).
import { eq, sql } from 'drizzle-orm';
import type { Preferences } from '@shared/schemas/preferences';
import type { Db } from '../../client';
import { storyMessages } from '../../schema';
import { executePrepared } from '../prepared';
import { MAX_ID } from '../sql-values';
import { messageColumns } from '../story-message-reads';
import type { MessageRecord, StoryRecord } from '../story-records';
import {
  fromJson,
  fromJsonRead,
  leaseAndAppendQuery,
  type JsonMessage,
  type JsonUnfoldedRead,
  type LeaseAndAppendInput,
  type UnfoldedRead,
} from '../story-turn';

/**
 * A player's turn in one statement, since it sits on the time-to-first-word path: takes the
 * lease on the owner's story, appends the action (numbered after the story's last turn) and
 * reads the verbatim window (the newest messages after the memory's reach, without the premise
 * and the new action, capped by `input.window`) and the owner's preferences (null when never set).
 * When the story ends with an unanswered action (its reply failed), the new action replaces it
 * as its next version instead, so the story never holds two player turns in a row and the old
 * words stay in the message's history.
 * Turns only grow with ids, so the next turn comes from the last message through the (story_id,
 * id) index: one row read, where max(turn) read every message and grew with the story.
 * Null when the story is not the owner's or the lease is held; the caller tells them apart.
 */
export async function leaseAndAppend(
  db: Db,
  input: LeaseAndAppendInput,
): Promise<{
  story: StoryRecord;
  action: MessageRecord;
  window: UnfoldedRead;
  preferences: Preferences | null;
} | null> {
  if (input.storyId > MAX_ID) return null;
  const [row] = await executePrepared<{
    story: StoryRecord;
    action: JsonMessage;
    window: JsonUnfoldedRead;
    preferences: Preferences | null;
  }>(db, 'story_lease_and_append', leaseAndAppendQuery(input));
  if (!row) return null;
  return {
    story: row.story,
    action: fromJson(row.action),
    window: fromJsonRead(row.window),
    preferences: row.preferences,
  };
}

/** Appends a player's action numbered after the story's last turn (seeding, tools; a turn uses leaseAndAppend). */
export async function appendAction(db: Db, storyId: number, content: string, now: Date): Promise<MessageRecord> {
  const nextTurn = sql<number>`coalesce((select ${storyMessages.turn} from ${storyMessages} where ${storyMessages.storyId} = ${storyId} and ${storyMessages.state} = 'shown' order by ${storyMessages.id} desc limit 1), 0) + 1`;
  const [row] = await db
    .insert(storyMessages)
    .values({ storyId, role: 'user', content, turn: nextTurn, attempts: 1, createdAt: now })
    .returning(messageColumns);
  return row;
}

/** Counts one more generation for an action and returns the new count (the attempt number + 1). */
export async function startAttempt(db: Db, messageId: number): Promise<number> {
  const [row] = await db
    .update(storyMessages)
    .set({ attempts: sql`${storyMessages.attempts} + 1` })
    .where(eq(storyMessages.id, messageId))
    .returning({ attempts: storyMessages.attempts });
  return row.attempts;
}
