// A story's shown messages as the turn, the reads and the folds read them: the newest, the
// opening, the heads and texts the story's answers are written from, the verbatim window and what
// a fold summarises next. Part of the stories repository (stories/index.ts spreads it in).
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { storyMessages } from '../schema';
import { executePrepared } from './prepared';
import { MAX_ID, rows } from './sql-values';
import type { MessageHead, MessageRecord } from './story-records';
import {
  fromJsonRead,
  oldestUnfoldedQuery,
  recentUnfoldedQuery,
  type JsonUnfoldedRead,
  type UnfoldedRead,
  type WindowLimits,
} from './story-turn';

export const messageColumns = {
  id: storyMessages.id,
  role: storyMessages.role,
  content: storyMessages.content,
  turn: storyMessages.turn,
  isInitial: storyMessages.isInitial,
  attempts: storyMessages.attempts,
  version: storyMessages.version,
  versions: storyMessages.versions,
  createdAt: storyMessages.createdAt,
};

/** Reads of a story see only its shown messages: undo and erase set the others aside. */
const shown = eq(storyMessages.state, 'shown');

export function storyMessageReads(db: Db) {
  return {
    async lastMessage(storyId: number): Promise<MessageRecord | null> {
      const [row] = await db
        .select(messageColumns)
        .from(storyMessages)
        .where(and(eq(storyMessages.storyId, storyId), shown))
        .orderBy(desc(storyMessages.id))
        .limit(1);
      return row ?? null;
    },

    async lastAction(storyId: number): Promise<MessageRecord | null> {
      const [row] = await db
        .select(messageColumns)
        .from(storyMessages)
        .where(and(eq(storyMessages.storyId, storyId), eq(storyMessages.role, 'user'), shown))
        .orderBy(desc(storyMessages.id))
        .limit(1);
      return row ?? null;
    },

    /** The narrator's first reply (the opening), which titles are written from. */
    async firstReply(storyId: number): Promise<MessageRecord | null> {
      const [row] = await db
        .select(messageColumns)
        .from(storyMessages)
        .where(and(eq(storyMessages.storyId, storyId), eq(storyMessages.role, 'assistant'), shown))
        .orderBy(asc(storyMessages.id))
        .limit(1);
      return row ?? null;
    },

    /**
     * The story's shown messages without their text, in story order: what story-json.ts writes
     * around the texts it keeps for the story's reads (current state, undo, redo, erase, recover).
     * The time comes as Date.toISOString writes it; one prepared statement and no per-row Date or
     * mapping: on a 1,000-turn story this read is most of what undo costs (docs/benchmarks.md).
     */
    async shownMessageHeads(storyId: number): Promise<MessageHead[]> {
      // Named as MessageHead has them, so the driver's rows are the heads (no second object per row).
      return executePrepared<MessageHead>(
        db,
        'story-shown-message-heads',
        sql`select id, role, is_initial as "isInitial", version, versions, loop_guard as "loopGuard",
              usage::text as "usageJson", to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "createdAt"
            from story_messages where story_id = ${storyId} and state = 'shown' order by id`,
      );
    },

    /** Every version's text of these messages of the story (the shown one, and the others once there are two). */
    async messageTexts(
      storyId: number,
      ids: number[],
    ): Promise<Array<{ id: number; version: number; content: string }>> {
      // One array parameter (as a PostgreSQL array literal), however many ids.
      const idList = `{${ids.join(',')}}`;
      return rows(
        db,
        sql`select id, version, content from story_messages where story_id = ${storyId} and id = any(${idList}::int[])
            union all
            select v.message_id as id, v.version, v.content from message_versions v join story_messages m on m.id = v.message_id
            where m.story_id = ${storyId} and m.versions > 1 and v.message_id = any(${idList}::int[])`,
      );
    },

    async listMessages(storyId: number): Promise<MessageRecord[]> {
      return db
        .select(messageColumns)
        .from(storyMessages)
        .where(and(eq(storyMessages.storyId, storyId), shown))
        .orderBy(asc(storyMessages.id));
    },

    /**
     * The verbatim window of a start or a retry, as leaseAndAppend reads a continue's: the newest
     * shown messages after the memory's reach (`afterId`) and before the action, without the premise,
     * capped; `more` when older unfolded messages were left out.
     */
    async recentUnfolded(
      storyId: number,
      afterId: number,
      beforeId: number,
      limits: WindowLimits,
    ): Promise<UnfoldedRead> {
      const [row] = await executePrepared<{ window: JsonUnfoldedRead }>(
        db,
        'story_recent_unfolded',
        recentUnfoldedQuery(storyId, afterId, beforeId, limits),
      );
      return fromJsonRead(row.window);
    },

    /**
     * What a fold summarises next: the oldest shown messages after the memory's reach (`afterId`)
     * through `throughId`, without the premise, capped; `more` when later ones up to `throughId` were left out.
     */
    async oldestUnfolded(
      storyId: number,
      afterId: number,
      throughId: number,
      limits: WindowLimits,
    ): Promise<UnfoldedRead> {
      const [row] = await executePrepared<{ window: JsonUnfoldedRead }>(
        db,
        'story_oldest_unfolded',
        oldestUnfoldedQuery(storyId, afterId, throughId, limits),
      );
      return fromJsonRead(row.window);
    },

    /**
     * The texts of the story's last `limit` shown narrator replies before `beforeId`, newest first
     * (the opening included): what the loop guard measures a reply against when the verbatim window
     * holds fewer. Walks the (story, id) index back from `beforeId`, so it reads a few rows, not the story.
     */
    async recentReplies(storyId: number, beforeId: number, limit: number): Promise<string[]> {
      const found = await db
        .select({ content: storyMessages.content })
        .from(storyMessages)
        .where(
          and(
            eq(storyMessages.storyId, storyId),
            shown,
            eq(storyMessages.role, 'assistant'),
            sql`${storyMessages.id} < ${beforeId}`,
          ),
        )
        .orderBy(desc(storyMessages.id))
        .limit(limit);
      return found.map((r) => r.content);
    },

    async hasMessage(storyId: number, messageId: number): Promise<boolean> {
      if (messageId > MAX_ID) return false;
      const [row] = await db
        .select({ id: storyMessages.id })
        .from(storyMessages)
        .where(and(eq(storyMessages.storyId, storyId), eq(storyMessages.id, messageId), shown));
      return Boolean(row);
    },
  };
}
