// Scenarios: what a story starts from (a premise, the author's instructions and note, cards and
// choices), kept by their author as drafts and published for others to play.
import { sql } from 'drizzle-orm';
import { customType, index, integer, jsonb, pgTable, primaryKey, real, text, timestamp } from 'drizzle-orm/pg-core';
import type { ScenarioOption } from '@shared/schemas/scenarios';
import type { StoryCardFields } from '@shared/schemas/story-cards';
import { users } from './accounts';
import { createdAt } from './columns';

/** PostgreSQL's full-text document type, for the Discover search (written by the database). */
const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

/**
 * A scenario. Its id is 16 random bytes (base64url), like a share's, so an unlisted one cannot be
 * found by counting. `version` is raised each time what others see changes (a publish, an edit while
 * published): stories started from it remember the version, and keep what they copied.
 */
export const scenarios = pgTable(
  'scenarios',
  {
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    premise: text('premise').notNull(),
    instructions: text('instructions').notNull().default(''),
    authorsNote: text('authors_note').notNull().default(''),
    tags: jsonb('tags').$type<string[]>().notNull().default([]),
    genre: text('genre'),
    contentRating: text('content_rating', { enum: ['general', 'teen', 'mature'] })
      .notNull()
      .default('general'),
    cards: jsonb('cards').$type<StoryCardFields[]>().notNull().default([]),
    options: jsonb('options').$type<ScenarioOption[]>().notNull().default([]),
    replyLength: text('reply_length', { enum: ['short', 'medium', 'long'] }),
    temperature: real('temperature'),
    narrator: text('narrator'),
    visibility: text('visibility', { enum: ['draft', 'unlisted', 'public'] })
      .notNull()
      .default('draft'),
    version: integer('version').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    publishedAt: timestamp('published_at', { withTimezone: true, mode: 'date' }),
    /**
     * The scenario this one remixes, with its title and author's name as they were: no foreign key,
     * so the lineage outlives the original (then shown as "a deleted scenario").
     */
    remixOfId: text('remix_of_id'),
    remixOfTitle: text('remix_of_title'),
    remixOfAuthor: text('remix_of_author'),
    /** Players who like it, counted by scenario_likes' trigger (migration 0038), a cascade included. */
    likes: integer('likes').notNull().default(0),
    /** Its title, description and tags as English words, kept by the database, for Discover's search. */
    search: tsvector('search').generatedAlwaysAs(
      sql`to_tsvector('english', title || ' ' || description || ' ' || (tags::text))`,
    ),
  },
  (t) => [
    index('scenarios_user_id_idx').on(t.userId, t.updatedAt),
    // Discover's newest first, public ones only, and its search.
    index('scenarios_public_new_idx')
      .on(t.publishedAt.desc(), t.id.desc())
      .where(sql`${t.visibility} = 'public'`),
    index('scenarios_search_idx').using('gin', t.search),
    index('scenarios_public_likes_idx')
      .on(t.likes.desc(), t.id.desc())
      .where(sql`${t.visibility} = 'public'`),
  ],
);

/** A player's like of a scenario: one each, taken back by deleting it. */
export const scenarioLikes = pgTable(
  'scenario_likes',
  {
    scenarioId: text('scenario_id')
      .notNull()
      .references(() => scenarios.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.scenarioId, t.userId] }), index('scenario_likes_user_idx').on(t.userId)],
);
