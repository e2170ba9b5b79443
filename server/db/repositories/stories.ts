// Stories and their messages, always scoped by the owner. Writes that must land together (a reply
// with its usage row and the end of the generation lease; a retry's replacement) are one statement
// or a transaction, so a process killed mid-turn leaves either the whole reply or none of it.
import { and, eq, gt, isNotNull, lt, or, isNull, sql } from 'drizzle-orm';
import type { Preferences } from '@shared/schemas/preferences';
import type { LoopGuardMark, ReplyUsage } from '@shared/schemas/story';
import type { Db } from '../client';
import { stories, storyMessages } from '../schema';
import { executePrepared } from './prepared';
import { assertWithinQuotas, type QuotaCheck } from './quotas';
import type { UsageEvent } from './usage';
import { MAX_ID } from './sql-values';
import {
  fromJson,
  fromJsonRead,
  leaseAndAppendQuery,
  messageJson,
  type JsonMessage,
  type JsonUnfoldedRead,
  type LeaseAndAppendInput,
  type UnfoldedRead,
} from './story-turn';
import type { MessageRecord, StoryRecord } from './story-records';
import type { ReplyContext } from './story-cards';
import { messageColumns, storyMessageReads } from './story-message-reads';

export type { MessageHead, MessageRecord, StoryRecord } from './story-records';

const storyColumns = {
  id: stories.id,
  userId: stories.userId,
  title: stories.title,
  premise: stories.premise,
  memory: stories.memory,
  memoryThroughId: stories.memoryThroughId,
  notes: stories.notes,
  cardsVersion: stories.cardsVersion,
  replyLength: stories.replyLength,
  temperature: stories.temperature,
};

export function createStoriesRepository(db: Db) {
  return {
    /**
     * Creates the story with its premise as the first (initial) message, already holding the
     * generation lease. With `quotas`, throws QuotaExceeded (and keeps nothing) when the new story
     * takes the account past one (seeding and tools pass none).
     */
    async create(input: {
      userId: number;
      premise: string;
      now: Date;
      leaseUntil: Date;
      quotas?: QuotaCheck;
    }): Promise<{ story: StoryRecord; premiseMessage: MessageRecord }> {
      return db.transaction(async (tx) => {
        const [story] = await tx
          .insert(stories)
          .values({
            userId: input.userId,
            premise: input.premise,
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
    },

    async findOwned(storyId: number, userId: number): Promise<StoryRecord | null> {
      if (storyId > MAX_ID) return null;
      const [row] = await db
        .select(storyColumns)
        .from(stories)
        .where(and(eq(stories.id, storyId), eq(stories.userId, userId), eq(stories.importing, false)));
      return row ?? null;
    },

    /**
     * Takes the one-generation-per-story lease on the owner's story and returns the story, in one
     * statement (it sits before the provider call, on the time-to-first-word path). Null when the
     * story is not the owner's, the lease is held or (with `maxStoredBytes`) the owner's stored text
     * is past that many bytes; the caller tells them apart.
     */
    async leaseOwned(
      storyId: number,
      userId: number,
      now: Date,
      until: Date,
      maxStoredBytes?: number,
    ): Promise<StoryRecord | null> {
      if (storyId > MAX_ID) return null;
      const withinStorage =
        maxStoredBytes === undefined
          ? undefined
          : sql`coalesce((select q.stored_bytes from user_stats q where q.user_id = ${userId}), 0) <= ${maxStoredBytes}::bigint`;
      const [row] = await db
        .update(stories)
        .set({ generatingUntil: until })
        .where(
          and(
            eq(stories.id, storyId),
            eq(stories.userId, userId),
            eq(stories.importing, false),
            or(isNull(stories.generatingUntil), lt(stories.generatingUntil, now)),
            withinStorage,
          ),
        )
        .returning(storyColumns);
      return row ?? null;
    },

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
    async leaseAndAppend(input: LeaseAndAppendInput): Promise<{
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
    },

    /** Takes the one-generation-per-story lease; false while another generation holds it. */
    async acquireLease(storyId: number, now: Date, until: Date): Promise<boolean> {
      const rows = await db
        .update(stories)
        .set({ generatingUntil: until })
        .where(and(eq(stories.id, storyId), or(isNull(stories.generatingUntil), lt(stories.generatingUntil, now))))
        .returning({ id: stories.id });
      return rows.length > 0;
    },

    async releaseLease(storyId: number): Promise<void> {
      await db.update(stories).set({ generatingUntil: null }).where(eq(stories.id, storyId));
    },

    /** Moves a held lease's end to `until` (the loop guard's second call); false when the lease is no longer held. */
    async extendLease(storyId: number, until: Date): Promise<boolean> {
      const rows = await db
        .update(stories)
        .set({ generatingUntil: until })
        .where(and(eq(stories.id, storyId), isNotNull(stories.generatingUntil)))
        .returning({ id: stories.id });
      return rows.length > 0;
    },

    /** At start-up (single process on PGlite) nothing can still be generating. */
    async releaseAllLeases(): Promise<number> {
      const rows = await db
        .update(stories)
        .set({ generatingUntil: null })
        .where(isNotNull(stories.generatingUntil))
        .returning({ id: stories.id });
      return rows.length;
    },

    async isGenerating(storyId: number, now: Date): Promise<boolean> {
      const [row] = await db
        .select({ id: stories.id })
        .from(stories)
        .where(and(eq(stories.id, storyId), gt(stories.generatingUntil, now)));
      return Boolean(row);
    },

    ...storyMessageReads(db),

    /** Appends a player's action numbered after the story's last turn (seeding, tools; a turn uses leaseAndAppend). */
    async appendAction(storyId: number, content: string, now: Date): Promise<MessageRecord> {
      const nextTurn = sql<number>`coalesce((select ${storyMessages.turn} from ${storyMessages} where ${storyMessages.storyId} = ${storyId} and ${storyMessages.state} = 'shown' order by ${storyMessages.id} desc limit 1), 0) + 1`;
      const [row] = await db
        .insert(storyMessages)
        .values({ storyId, role: 'user', content, turn: nextTurn, attempts: 1, createdAt: now })
        .returning(messageColumns);
      return row;
    },

    /** Counts one more generation for an action and returns the new count (the attempt number + 1). */
    async startAttempt(messageId: number): Promise<number> {
      const [row] = await db
        .update(storyMessages)
        .set({ attempts: sql`${storyMessages.attempts} + 1` })
        .where(eq(storyMessages.id, messageId))
        .returning({ attempts: storyMessages.attempts });
      return row.attempts;
    },

    /**
     * Saves a finished reply with its usage row and the end of the lease. A retry of an answered
     * action (`alternativeTo`, its reply) adds the reply as that message's next version and shows
     * it: the earlier replies stay as alternatives (the first retry also writes the original).
     */
    async saveReply(input: {
      storyId: number;
      turn: number;
      content: string;
      alternativeTo: number | null;
      usage: UsageEvent | null;
      now: Date;
      /** What the narrator was sent for this reply (the version it becomes), kept with it. */
      context?: ReplyContext | null;
      /** The loop guard's mark on this version: it replaced a looping answer, or kept one that loops. */
      loopGuard?: LoopGuardMark | null;
      /** What this version's calls cost, kept with it. */
      replyUsage?: ReplyUsage | null;
    }): Promise<MessageRecord> {
      // One statement, so all of it or none lands, in one round trip instead of a transaction's five
      // (it sits between the last streamed word and the player's `done`).
      const context = input.context ?? null;
      const intArray = (ids: number[] | undefined) => `{${(ids ?? []).join(',')}}`;
      const now = input.now.toISOString();
      const usage = input.usage;
      const loopGuard = input.loopGuard ?? null;
      const replyUsage = input.replyUsage ? JSON.stringify(input.replyUsage) : null;
      const [row] = await executePrepared<{ message: JsonMessage }>(
        db,
        'story_save_reply',
        sql`
        with target as (
          select id, content, versions, created_at, loop_guard, usage from story_messages
          where ${input.alternativeTo !== null}::boolean and id = ${input.alternativeTo ?? 0} and story_id = ${input.storyId} and role = 'assistant'
        ), first_version as (
          insert into message_versions (message_id, version, kind, content, created_at, loop_guard, usage)
          select id, 1, 'original', content, created_at, loop_guard, usage from target where versions = 1
        ), new_version as (
          insert into message_versions (message_id, version, kind, content, created_at, loop_guard, usage)
          select id, versions + 1, 'alternative', ${input.content}, ${now}::timestamptz, ${loopGuard}::text, ${replyUsage}::jsonb from target
        ), alternative as (
          update story_messages m set content = ${input.content}, version = t.versions + 1, versions = t.versions + 1,
            loop_guard = ${loopGuard}::text, usage = ${replyUsage}::jsonb
          from target t where m.id = t.id
          returning m.*
        ), inserted as (
          insert into story_messages (story_id, role, content, turn, created_at, loop_guard, usage)
          select ${input.storyId}, 'assistant', ${input.content}, ${input.turn}, ${now}::timestamptz, ${loopGuard}::text, ${replyUsage}::jsonb
          where not ${input.alternativeTo !== null}::boolean
          returning *
        ), reply as (
          select * from alternative union all select * from inserted
        ), usage as (
          insert into usage_events (user_id, story_id, message_id, kind, provider, model, input_tokens, cached_input_tokens, output_tokens, image_tokens, characters, created_at)
          select ${usage?.userId ?? 0}::int, ${usage?.storyId ?? null}::int, r.id, ${usage?.kind ?? 'turn'}::text, ${usage?.provider ?? ''}::text, ${usage?.model ?? ''}::text,
            ${usage?.inputTokens ?? 0}::int, ${usage?.cachedInputTokens ?? 0}::int, ${usage?.outputTokens ?? 0}::int, ${usage?.imageTokens ?? 0}::int, ${usage?.characters ?? 0}::int,
            ${(usage?.createdAt ?? input.now).toISOString()}::timestamptz
          from reply r where ${usage !== null}::boolean
        ), released as (
          update stories set generating_until = null, updated_at = ${now}::timestamptz where id = ${input.storyId}
        ), context as (
          insert into narrator_contexts (message_id, version, keyed, "on", record, created_at)
          select r.id, r.version, ${intArray(context?.keyed)}::int[], ${intArray(context?.on)}::int[],
            ${JSON.stringify(context?.record ?? null)}::jsonb, ${now}::timestamptz
          from reply r where ${context !== null}::boolean
          on conflict (message_id, version) do update set keyed = excluded.keyed, "on" = excluded."on", record = excluded.record
        )
        select ${messageJson('reply')} as message from reply`,
      );
      return fromJson(row.message);
    },

    /**
     * Replaces the memory only if nobody changed it since it was read: another fold (several
     * instances may try at once) or the player editing it in the story memory panel, whose words
     * win (the turns stay verbatim and fold into the edited memory later).
     */
    async applyFold(
      storyId: number,
      expected: { throughId: number; memory: string },
      throughId: number,
      memory: string,
      now: Date,
    ): Promise<boolean> {
      // The fold is kept too (branches and undo go back to it), in the same statement.
      const [row] = await executePrepared<{ applied: boolean }>(
        db,
        'story_apply_fold',
        sql`
        with applied as (
          update stories set memory = ${memory}, memory_through_id = ${throughId}
          where id = ${storyId} and memory_through_id = ${expected.throughId} and memory = ${expected.memory}
          returning id
        ), kept as (
          insert into story_memory_folds (story_id, through_id, memory, created_at)
          select id, ${throughId}, ${memory}, ${now.toISOString()}::timestamptz from applied
          on conflict (story_id, through_id) do update set memory = excluded.memory, created_at = excluded.created_at
        )
        select exists (select 1 from applied) as applied`,
      );
      return row.applied;
    },

    /** Changes the owner's story's generation settings given (each absent one stays); null when it is not theirs. */
    async updateSettings(input: {
      storyId: number;
      userId: number;
      replyLength?: StoryRecord['replyLength'];
      temperature?: number;
    }): Promise<StoryRecord | null> {
      if (input.storyId > MAX_ID) return null;
      const [row] = await db
        .update(stories)
        .set({
          replyLength: input.replyLength ?? sql`${stories.replyLength}`,
          temperature: input.temperature ?? sql`${stories.temperature}`,
        })
        .where(and(eq(stories.id, input.storyId), eq(stories.userId, input.userId), eq(stories.importing, false)))
        .returning(storyColumns);
      return row ?? null;
    },

    /**
     * The story memory panel's save: the pinned premise, the memory (as stored: its chunks joined)
     * and the notes, each only when given, unless a reply is being written. 'missing' when the story
     * is not the owner's.
     */
    async updateMemory(input: {
      storyId: number;
      userId: number;
      now: Date;
      premise?: string;
      memory?: string;
      notes?: string;
    }): Promise<StoryRecord | 'busy' | 'missing'> {
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
    },

    async setTitle(storyId: number, title: string): Promise<void> {
      await db.update(stories).set({ title }).where(eq(stories.id, storyId));
    },
  };
}
export type StoriesRepository = ReturnType<typeof createStoriesRepository>;
