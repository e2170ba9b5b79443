// The usage ledger (append-only) and the rollups its triggers keep (migration 0006 and on): daily
// totals, each player's month, each player's stats, and the reservations of calls in flight.
import { sql } from 'drizzle-orm';
import { bigserial, date, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { counter, createdAt } from './columns';
import { stories } from './stories';

/**
 * The usage ledger: one row per provider call (story turn, the loop guard's second call, summary, title, image, style sheet,
 * speech, transcription, embedding). Text, image and embedding calls count tokens; speech and
 * transcription calls count `characters` (a spoken sentence's length, a transcript's length) and
 * no tokens, so token totals are the same with or without them.
 */
export const usageEvents = pgTable(
  'usage_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** Null once the player deleted their account: the row stays, anonymous, in the operator's totals. */
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    storyId: integer('story_id').references(() => stories.id, { onDelete: 'set null' }),
    /**
     * The narrator reply the call was for or came after (a turn, its fold, its picture and style
     * sheet), so the context viewer can list what a reply set off. No foreign key: the ledger is
     * append-only and outlives an erased reply.
     */
    messageId: integer('message_id'),
    kind: text('kind', {
      enum: ['turn', 'retry-loop', 'summary', 'title', 'image', 'style', 'speech', 'transcription', 'embedding'],
    })
      .notNull()
      .default('turn'),
    provider: text('provider').notNull(),
    model: text('model').notNull(),
    /**
     * The catalogue narrator that made the call (a turn, the loop guard's second call, a summary, a
     * title, a style sheet), priced with its prices. Rows from before the catalogue, and calls no
     * narrator makes (pictures, voices, embeddings), are `default`.
     */
    narrator: text('narrator').notNull().default('default'),
    inputTokens: integer('input_tokens').notNull().default(0),
    /** The part of input_tokens the provider read from its prompt cache (priced at LLM_PRICE_CACHED_INPUT). */
    cachedInputTokens: integer('cached_input_tokens').notNull().default(0),
    outputTokens: integer('output_tokens').notNull().default(0),
    imageTokens: integer('image_tokens').notNull().default(0),
    characters: integer('characters').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    index('usage_events_user_created_idx').on(t.userId, t.createdAt),
    index('usage_events_created_idx').on(t.createdAt),
    index('usage_events_message_idx')
      .on(t.messageId)
      .where(sql`${t.messageId} is not null`),
  ],
);

/*
 * Rollups of the usage ledger, kept by database triggers (migration 0006) so that every insert path
 * updates them in the same statement and the admin dashboard never scans the ledger:
 * - usage_daily: tokens, characters and calls per UTC day, kind, provider, model and narrator (the usage card,
 *   the chart and the provider breakdown read a few hundred rows, not a million);
 * - user_usage_monthly: the same per user and UTC month (a user's monthly usage);
 * - user_stats: one row per user (created with the user) with all-time and current-month tokens,
 *   stories and narrator turns, indexed for the users table's sorts; since 0013 also the account's
 *   quotas: live shares and stored bytes, kept by triggers on the tables that hold the text.
 * The ledger is append-only; a deleted user's rows leave user_stats and user_usage_monthly by cascade
 * while usage_daily keeps the spend, which still happened.
 */
export const usageDaily = pgTable(
  'usage_daily',
  {
    day: date('day', { mode: 'string' }).notNull(),
    kind: text('kind').notNull(),
    provider: text('provider').notNull(),
    model: text('model').notNull(),
    narrator: text('narrator').notNull().default('default'),
    calls: counter('calls'),
    inputTokens: counter('input_tokens'),
    cachedInputTokens: counter('cached_input_tokens'),
    outputTokens: counter('output_tokens'),
    imageTokens: counter('image_tokens'),
    characters: counter('characters'),
  },
  (t) => [primaryKey({ columns: [t.day, t.kind, t.provider, t.model, t.narrator] })],
);

export const userUsageMonthly = pgTable(
  'user_usage_monthly',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The first day of the UTC month. */
    month: date('month', { mode: 'string' }).notNull(),
    calls: counter('calls'),
    inputTokens: counter('input_tokens'),
    cachedInputTokens: counter('cached_input_tokens'),
    outputTokens: counter('output_tokens'),
    imageTokens: counter('image_tokens'),
    characters: counter('characters'),
  },
  (t) => [primaryKey({ columns: [t.userId, t.month] })],
);

export const userStats = pgTable(
  'user_stats',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    textTokens: counter('text_tokens'),
    imageTokens: counter('image_tokens'),
    totalTokens: counter('total_tokens'),
    /** The input part of text_tokens (the rest is output) and its cached part, so costs can be priced (migration 0027). */
    inputTokens: counter('input_tokens'),
    cachedInputTokens: counter('cached_input_tokens'),
    /** The UTC month `monthTokens` counts (first day); older means nothing spent this month yet. */
    month: date('month', { mode: 'string' }),
    monthTokens: counter('month_tokens'),
    /** This month's image tokens (the rest of `monthTokens` is text), so a month's cost can be estimated. */
    monthImageTokens: counter('month_image_tokens'),
    /** This month's input tokens and their cached part (the month's output is what remains of its text). */
    monthInputTokens: counter('month_input_tokens'),
    monthCachedInputTokens: counter('month_cached_input_tokens'),
    stories: integer('stories').notNull().default(0),
    turns: integer('turns').notNull().default(0),
    /**
     * Speech and transcription as allowance tokens (migration 0011: a spoken character is a quarter of a
     * token, a transcript's character two, at least 25 a recording), for the UTC month `speechMonth`.
     * Kept apart from the token columns, which count what the models reported.
     */
    speechMonth: date('speech_month', { mode: 'string' }),
    monthSpeechTokens: counter('month_speech_tokens'),
    /** Live share links (migration 0013): the USER_MAX_SHARES quota reads it. */
    shares: integer('shares').notNull().default(0),
    /**
     * Bytes of what the player stores (migrations 0013, 0018 and 0030): their stories' premise, memory
     * and notes, messages, message versions, kept memory folds, story cards, story-bible facts, the
     * memory bank's passages, terms and vectors, each reply version's context record, and their share
     * snapshots (title and messages as JSON text). Pictures are not counted. The USER_MAX_STORED_MB
     * quota reads it.
     */
    storedBytes: counter('stored_bytes'),
  },
  (t) => [
    index('user_stats_text_idx').on(t.textTokens, t.userId),
    index('user_stats_image_idx').on(t.imageTokens, t.userId),
    index('user_stats_total_idx').on(t.totalTokens, t.userId),
    index('user_stats_month_idx').on(t.month, t.monthTokens, t.userId),
    index('user_stats_stories_idx').on(t.stories, t.userId),
    index('user_stats_turns_idx').on(t.turns, t.userId),
  ],
);

/**
 * Tokens reserved by paid calls in flight: a call reserves what it may cost before it is
 * made, and gives the reservation back once its usage row is written (or it failed). The monthly
 * allowance check counts them, so parallel calls cannot all pass on the same remaining balance; a
 * reservation left by a process that died stops counting at `expiresAt`, and housekeeping deletes it.
 */
export const usageHolds = pgTable(
  'usage_holds',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokens: integer('tokens').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [index('usage_holds_user_idx').on(t.userId, t.expiresAt)],
);
