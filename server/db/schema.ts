// The one Drizzle pg-core schema. The same tables and migrations run on embedded PGlite and on
// PostgreSQL. Case-insensitive uniqueness lives in expression indexes so "Alice" and "alice" clash.
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  customType,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/** Raw bytes (pictures): Buffer in, Buffer out on both PGlite and node-postgres. */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    username: text('username').notNull(),
    email: text('email'),
    passwordHash: text('password_hash').notNull(),
    isAdmin: boolean('is_admin').notNull().default(false),
    /** Purchased tokens left; the purchase flow is not part of the product yet, so it starts at 0. */
    tokenBalance: integer('token_balance').notNull().default(0),
    createdAt: createdAt(),
    lastActive: timestamp('last_active', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    uniqueIndex('users_username_lower_idx').on(sql`lower(${t.username})`),
    uniqueIndex('users_email_lower_idx').on(sql`lower(${t.email})`),
    // The admin table sorts by these; username and email sort through the lower() indexes above. A
    // user who never came back was last active when they joined, so "last active" never sorts blank.
    index('users_created_at_idx').on(t.createdAt, t.id),
    index('users_last_active_idx').on(sql`coalesce(${t.lastActive}, ${t.createdAt})`, t.id),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    /** SHA-256 of the cookie token: a leaked table cannot be replayed as cookies. */
    tokenHash: text('token_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('sessions_user_id_idx').on(t.userId), index('sessions_expires_at_idx').on(t.expiresAt)],
);

export const captchaChallenges = pgTable(
  'captcha_challenges',
  {
    /** SHA-256 of the challenge token kept in the visitor's cookie. */
    tokenHash: text('token_hash').primaryKey(),
    answer: integer('answer').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [index('captcha_challenges_expires_at_idx').on(t.expiresAt)],
);

/**
 * The networks (an IPv4 address, an IPv6 /64) each account has signed in from successfully: a
 * correct password from one of them passes the account's failed-login lock, so guessing from
 * elsewhere cannot lock the owner out. The most recent few per account, kept for months (not in
 * rate_limit_events, which housekeeping empties after a day); gone with the account.
 */
export const knownSignInNetworks = pgTable(
  'known_sign_in_networks',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    network: text('network').notNull(),
    lastSignInAt: timestamp('last_sign_in_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.network] })],
);

/** Events counted by the abuse limits (failed logins, registrations); kept in the database so every app instance sees them. */
export const rateLimitEvents = pgTable(
  'rate_limit_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    bucket: text('bucket').notNull(),
    key: text('key').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('rate_limit_events_lookup_idx').on(t.bucket, t.key, t.createdAt)],
);

/**
 * A story: the premise is pinned (always in the prompt); `memory` is the rolling summary of the turns
 * up to message `memoryThroughId`, folded in chunks so the prompt prefix stays stable for provider
 * caching. `generatingUntil` is the one-generation-per-story lease: set while a reply is being
 * written, cleared when it ends, and expiring by itself if the process dies.
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
    generatingUntil: timestamp('generating_until', { withTimezone: true, mode: 'date' }),
    /** An import still being written (in pieces, so the embedded database's one session is never held long): hidden until it is whole. */
    importing: boolean('importing').notNull().default(false),
    /** The story this one was branched from (while it exists) and the message the branch copied up to. */
    branchedFromStoryId: integer('branched_from_story_id').references((): AnyPgColumn => stories.id, {
      onDelete: 'set null',
    }),
    branchedFromMessageId: integer('branched_from_message_id'),
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
  ],
);

/**
 * The memory as each fold left it (the summary through a message), so a branch from an older
 * message starts from the memory as it stood there, and an undo or erase reaching into folded
 * turns goes back to the fold before them.
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
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.messageId, t.version] })],
);

/**
 * The usage ledger: one row per provider call (story turn, summary, title, image, style sheet,
 * speech, transcription). Text and image calls count tokens; speech and transcription calls count
 * `characters` (a spoken sentence's length, a transcript's length) and no tokens, so token totals
 * are the same with or without them.
 */
export const usageEvents = pgTable(
  'usage_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** Null once the player deleted their account: the row stays, anonymous, in the operator's totals. */
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    storyId: integer('story_id').references(() => stories.id, { onDelete: 'set null' }),
    kind: text('kind', { enum: ['turn', 'summary', 'title', 'image', 'style', 'speech', 'transcription'] })
      .notNull()
      .default('turn'),
    provider: text('provider').notNull(),
    model: text('model').notNull(),
    inputTokens: integer('input_tokens').notNull().default(0),
    outputTokens: integer('output_tokens').notNull().default(0),
    imageTokens: integer('image_tokens').notNull().default(0),
    characters: integer('characters').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    index('usage_events_user_created_idx').on(t.userId, t.createdAt),
    index('usage_events_created_idx').on(t.createdAt),
  ],
);

/**
 * A player's bookmark: a story at one of its messages. `lastMessageId` is not a foreign key: undo
 * and erase set messages aside (and stories made before versions replaced a retried reply's row),
 * and the bookmark must survive that (reads resolve it to the nearest message the story shows).
 */
export const bookmarks = pgTable(
  'bookmarks',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    storyId: integer('story_id')
      .notNull()
      .references(() => stories.id, { onDelete: 'cascade' }),
    lastMessageId: integer('last_message_id').notNull(),
    title: text('title').notNull(),
    description: text('description'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('bookmarks_user_created_idx').on(t.userId, t.createdAt), index('bookmarks_story_id_idx').on(t.storyId)],
);

/**
 * A shared story: a snapshot of the story's turns taken when it was shared, so the link keeps
 * showing what the owner chose to share even as the story goes on (sharing again makes a new link).
 * The id is the unguessable share id itself; deleting the story or the user removes its links. Its
 * messages are in shared_story_pieces, written a few hundred KB per transaction while `writing`
 * hides the share (like an import), and the pictures it shows in shared_story_pictures.
 */
export const sharedStories = pgTable(
  'shared_stories',
  {
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    storyId: integer('story_id')
      .notNull()
      .references(() => stories.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    /** How many pieces hold its messages. */
    pieces: integer('pieces').notNull().default(0),
    writing: boolean('writing').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [index('shared_stories_user_id_idx').on(t.userId), index('shared_stories_story_id_idx').on(t.storyId)],
);

/** A run of a share's messages, in order: a JSON array of { role, content, image?, thumbnail?, imageAlt? } as text. */
export const sharedStoryPieces = pgTable(
  'shared_story_pieces',
  {
    shareId: text('share_id')
      .notNull()
      .references(() => sharedStories.id, { onDelete: 'cascade' }),
    /** The owner again: the storage counter's trigger needs it when the share goes first (a cascade). */
    userId: integer('user_id').notNull(),
    piece: integer('piece').notNull(),
    messages: text('messages').notNull(),
  },
  (t) => [primaryKey({ columns: [t.shareId, t.piece] })],
);

/** The stored pictures a share shows (a picture still shown somewhere is never removed). */
export const sharedStoryPictures = pgTable(
  'shared_story_pictures',
  {
    shareId: text('share_id')
      .notNull()
      .references(() => sharedStories.id, { onDelete: 'cascade' }),
    assetHash: text('asset_hash').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.shareId, t.assetHash] }),
    index('shared_story_pictures_asset_hash_idx').on(t.assetHash),
  ],
);

/** A player's story preferences; no row means the defaults (spec section 3). */
export const userPreferences = pgTable('user_preferences', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  contentRating: text('content_rating', { enum: ['general', 'teen', 'mature'] })
    .notNull()
    .default('general'),
  narrativeStyle: text('narrative_style', { enum: ['descriptive', 'concise', 'dramatic'] })
    .notNull()
    .default('descriptive'),
  languageStyle: text('language_style', { enum: ['modern', 'archaic', 'formal'] })
    .notNull()
    .default('modern'),
  imageGeneration: boolean('image_generation').notNull().default(false),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/**
 * Stored pictures, content-addressed: the id is the SHA-256 of the WebP bytes, so every instance
 * serves the same bytes under an immutable URL and a picture shared in a snapshot outlives a retry
 * that replaced its message.
 */
export const imageAssets = pgTable('image_assets', {
  hash: text('hash').primaryKey(),
  webp: bytea('webp').notNull(),
  thumbnail: bytea('thumbnail').notNull(),
  width: integer('width').notNull(),
  height: integer('height').notNull(),
  createdAt: createdAt(),
});

/**
 * A narrator message's scene picture and its job's state: pending while the job runs, then ready
 * (with its asset) or failed (with the player-facing reason). One per message version: asking again
 * restarts it. `attempts` counts job runs, so a job that died mid-way is retried once only.
 */
export const sceneImages = pgTable(
  'scene_images',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    storyId: integer('story_id')
      .notNull()
      .references(() => stories.id, { onDelete: 'cascade' }),
    messageId: integer('message_id')
      .notNull()
      .references(() => storyMessages.id, { onDelete: 'cascade' }),
    /** The message version it illustrates: each alternative has its own picture; an edit keeps its version's. */
    version: integer('version').notNull().default(1),
    status: text('status', { enum: ['pending', 'ready', 'failed'] })
      .notNull()
      .default('pending'),
    /** The scene part of the prompt (the reply illustrated), also the picture's alt text. */
    scene: text('scene').notNull(),
    assetHash: text('asset_hash').references(() => imageAssets.hash),
    error: text('error'),
    attempts: integer('attempts').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('scene_images_message_version_idx').on(t.messageId, t.version),
    index('scene_images_story_id_idx').on(t.storyId, t.messageId),
    index('scene_images_user_created_idx').on(t.userId, t.createdAt),
    index('scene_images_asset_hash_idx').on(t.assetHash),
  ],
);

/**
 * A story's visual style sheet, prepended to every scene prompt: art style, the player character's
 * look and the recurring characters' looks. `seed` is the story's one seed where a painter takes one.
 */
export const storyVisuals = pgTable('story_visuals', {
  storyId: integer('story_id')
    .primaryKey()
    .references(() => stories.id, { onDelete: 'cascade' }),
  artStyle: text('art_style').notNull().default(''),
  player: text('player').notNull().default(''),
  characters: jsonb('characters')
    .$type<Array<{ name: string; face: string; hair: string; clothes: string }>>()
    .notNull()
    .default([]),
  seed: integer('seed').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/**
 * A narrator reply's spoken sentence in one server voice, kept so a replay costs nothing: one row
 * per (message, voice, sentence text). Keyed by the sentence's SHA-256 rather than its position,
 * so a clip can never be served for different words, whichever version of the message is shown.
 * Deleting the message (with its story) removes its clips.
 */
export const speechClips = pgTable(
  'speech_clips',
  {
    id: serial('id').primaryKey(),
    messageId: integer('message_id')
      .notNull()
      .references(() => storyMessages.id, { onDelete: 'cascade' }),
    voice: text('voice').notNull(),
    textHash: text('text_hash').notNull(),
    mime: text('mime').notNull(),
    audio: bytea('audio').notNull(),
    characters: integer('characters').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('speech_clips_message_voice_text_idx').on(t.messageId, t.voice, t.textHash)],
);

/*
 * Rollups of the usage ledger, kept by database triggers (migration 0006) so that every insert path
 * updates them in the same statement and the admin dashboard never scans the ledger:
 * - usage_daily: tokens, characters and calls per UTC day, kind, provider and model (the usage card,
 *   the chart and the provider breakdown read a few hundred rows, not a million);
 * - user_usage_monthly: the same per user and UTC month (a user's monthly usage);
 * - user_stats: one row per user (created with the user) with all-time and current-month tokens,
 *   stories and narrator turns, indexed for the users table's sorts; since 0013 also the account's
 *   quotas: live shares and stored bytes, kept by triggers on the tables that hold the text.
 * The ledger is append-only; a deleted user's rows leave user_stats and user_usage_monthly by cascade
 * while usage_daily keeps the spend, which still happened.
 */
const counter = (name: string) => bigint(name, { mode: 'number' }).notNull().default(0);

export const usageDaily = pgTable(
  'usage_daily',
  {
    day: date('day', { mode: 'string' }).notNull(),
    kind: text('kind').notNull(),
    provider: text('provider').notNull(),
    model: text('model').notNull(),
    calls: counter('calls'),
    inputTokens: counter('input_tokens'),
    outputTokens: counter('output_tokens'),
    imageTokens: counter('image_tokens'),
    characters: counter('characters'),
  },
  (t) => [primaryKey({ columns: [t.day, t.kind, t.provider, t.model] })],
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
    /** The UTC month `monthTokens` counts (first day); older means nothing spent this month yet. */
    month: date('month', { mode: 'string' }),
    monthTokens: counter('month_tokens'),
    /** This month's image tokens (the rest of `monthTokens` is text), so a month's cost can be estimated. */
    monthImageTokens: counter('month_image_tokens'),
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
     * Bytes of the player's stored text (migration 0013): their stories' premise, memory and notes,
     * messages, message versions and kept memory folds, and their share snapshots (title and
     * messages as JSON text). Pictures are not counted. The USER_MAX_STORED_MB quota reads it.
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
 * Tokens reserved by paid calls in flight (issue 23): a call reserves what it may cost before it is
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
