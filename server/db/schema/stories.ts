// Stories, their messages (with every version of a message) and the memory folds that summarise
// their older turns.
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  serial,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { users } from './accounts';
import type { ReplyUsage } from '@shared/schemas/story';
import { createdAt } from './columns';

/**
 * A story: the premise is pinned (always in the prompt); `memory` is the summary of the turns up to
 * message `memoryThroughId`, as chunks joined by U+001E (ai/llm/memory-chunks.ts): each fold appends
 * one, so the prompt prefix stays stable for provider caching. `generatingUntil` is the
 * one-generation-per-story lease: set while a reply is being written, cleared when it ends, and
 * expiring by itself if the process dies.
 */
export const stories = pgTable(
  'stories',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title'),
    premise: text('premise').notNull(),
    memory: text('memory').notNull().default(''),
    memoryThroughId: integer('memory_through_id').notNull().default(0),
    /** The player's notes for the narrator (an author's note), sent with every turn. */
    notes: text('notes').notNull().default(''),
    /** The story's reply length: 'short', 'medium' (today's) or 'long'. */
    replyLength: text('reply_length', { enum: ['short', 'medium', 'long'] })
      .notNull()
      .default('medium'),
    /** The story's temperature, 0-2; null follows LLM_TEMPERATURE. */
    temperature: real('temperature'),
    /** The narrator the player picked for the story (an id of the catalogue, NARRATORS_FILE); null: the default. */
    narrator: text('narrator'),
    generatingUntil: timestamp('generating_until', { withTimezone: true, mode: 'date' }),
    /** An import still being written (in pieces, so the embedded database's one session is never held long): hidden until it is whole. */
    importing: boolean('importing').notNull().default(false),
    /** The story this one was branched from (while it exists) and the message the branch copied up to. */
    branchedFromStoryId: integer('branched_from_story_id').references((): AnyPgColumn => stories.id, {
      onDelete: 'set null',
    }),
    branchedFromMessageId: integer('branched_from_message_id'),
    /** Raised by every change to the story's cards (migration 0018's trigger): a turn's cached card heads are current while it is unchanged. */
    cardsVersion: integer('cards_version').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    index('stories_user_id_idx').on(t.userId, t.id),
    index('stories_branched_from_idx')
      .on(t.branchedFromStoryId)
      .where(sql`${t.branchedFromStoryId} is not null`),
  ],
);

/**
 * Story messages in story order (ascending id). `turn` numbers the player's actions (the premise
 * is turn 0) and a reply carries its action's turn; `attempts` counts generations started for an
 * action, so every retry asks the narrator for a different reply.
 * `content` is the version shown (`version` of `versions`); once a message has a second version,
 * all of them are in message_versions, so a message that never changed costs nothing extra.
 * Undo and erase set a story's last messages aside (`state` 'undone', `undoneFrom` the first
 * message of that part) and redo brings the part back; every read of the story skips them.
 */
export const storyMessages = pgTable(
  'story_messages',
  {
    id: serial('id').primaryKey(),
    storyId: integer('story_id')
      .notNull()
      .references(() => stories.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ['user', 'assistant'] }).notNull(),
    content: text('content').notNull(),
    turn: integer('turn').notNull(),
    isInitial: boolean('is_initial').notNull().default(false),
    attempts: integer('attempts').notNull().default(0),
    state: text('state', { enum: ['shown', 'undone'] })
      .notNull()
      .default('shown'),
    undoneFrom: integer('undone_from'),
    version: integer('version').notNull().default(1),
    versions: integer('versions').notNull().default(1),
    /** What the loop guard did to the shown version of a narrator reply: 'replaced' or 'marked' (null: nothing). */
    loopGuard: text('loop_guard', { enum: ['replaced', 'marked'] }),
    /** What the shown version of a narrator reply cost (its own calls): ReplyUsage; null for replies from before costs were kept, and on the player's messages. */
    usage: jsonb('usage').$type<ReplyUsage>(),
    /** The version the memory bank has cut into passages (null: none yet); see story_messages_unindexed_idx. */
    indexedVersion: integer('indexed_version'),
    createdAt: createdAt(),
  },
  (t) => [
    index('story_messages_story_id_idx').on(t.storyId, t.id),
    // The shown messages only, newest last: a turn's newest message and window, and every read of
    // a story, come from here. Without it the planner, with no statistics (PGlite never analyses),
    // guessed that few messages are shown and read the whole story to sort out the newest one.
    index('story_messages_shown_idx')
      .on(t.storyId, t.id)
      .where(sql`${t.state} = 'shown'`),
    // The set-aside messages by the cut that set them aside: redo brings a group back a piece at a
    // time, each piece found here rather than by reading the story from its start.
    index('story_messages_undone_idx')
      .on(t.storyId, t.undoneFrom, t.id)
      .where(sql`${t.state} = 'undone'`),
    // The shown messages whose shown version the memory bank has not indexed: a catch-up after a
    // fold reads only these, where finding them among all the story's messages grew with the story
    // (bench:soak: 1.1 ms a catch-up in the first minute, 3.9 ms in the fifth).
    index('story_messages_unindexed_idx')
      .on(t.storyId, t.id)
      .where(sql`${t.state} = 'shown' and not ${t.isInitial} and ${t.indexedVersion} is distinct from ${t.version}`),
  ],
);

/**
 * The memory as each fold left it (the summary through a message, its chunks as `stories.memory`
 * holds them), so a branch from an older message starts from the memory as it stood there, and an
 * undo or erase reaching into folded turns goes back to the fold before them, chunks and all.
 */
export const storyMemoryFolds = pgTable(
  'story_memory_folds',
  {
    storyId: integer('story_id')
      .notNull()
      .references(() => stories.id, { onDelete: 'cascade' }),
    throughId: integer('through_id').notNull(),
    memory: text('memory').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.storyId, t.throughId] })],
);

/**
 * Every version of a message that has more than one: the words first written ('original'), a
 * narrator's alternative from 'Try again', the owner's edit, or a new action that replaced an
 * unanswered one ('replacement').
 */
export const messageVersions = pgTable(
  'message_versions',
  {
    messageId: integer('message_id')
      .notNull()
      .references(() => storyMessages.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    kind: text('kind', { enum: ['original', 'alternative', 'edit', 'replacement'] }).notNull(),
    content: text('content').notNull(),
    /** The loop guard's mark on this version, as story_messages.loop_guard has it while it is shown. */
    loopGuard: text('loop_guard', { enum: ['replaced', 'marked'] }),
    /** What this version cost, as story_messages.usage has it while it is shown. */
    usage: jsonb('usage').$type<ReplyUsage>(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.messageId, t.version] })],
);
