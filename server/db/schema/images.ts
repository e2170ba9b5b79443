// Scene pictures: stored image bytes by content hash, each message's picture and job state, and a
// story's visual style sheet.
import { index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { bytea, createdAt } from './columns';
import { stories, storyMessages } from './stories';

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
