// A player's story preferences.
import { boolean, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './accounts';

/** A player's story preferences; no row means the defaults. */
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
  /** The catalogue narrator new stories start with; null: the catalogue's default. */
  narrator: text('narrator'),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});
