// A story's cards (its lore for the narrator) and the context record of each narrator reply: what
// the prompt held, block by block, and why (references and counts, never a second copy of the prompt).
import { boolean, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp } from 'drizzle-orm/pg-core';
import type { NarratorContext } from '@shared/schemas/story-cards';
import { createdAt } from './columns';
import { stories, storyMessages } from './stories';

export const storyCards = pgTable(
  'story_cards',
  {
    id: serial('id').primaryKey(),
    storyId: integer('story_id')
      .notNull()
      .references(() => stories.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    keys: jsonb('keys').$type<string[]>().notNull(),
    secondaryKeys: jsonb('secondary_keys').$type<string[]>().notNull(),
    secondaryLogic: text('secondary_logic', { enum: ['andAny', 'andAll', 'notAny', 'notAll'] }).notNull(),
    content: text('content').notNull(),
    /** The content's tokens (the narrator's tokenizer), counted when it is written: shown and budgeted without recounting. */
    tokens: integer('tokens').notNull(),
    alwaysOn: boolean('always_on').notNull(),
    enabled: boolean('enabled').notNull(),
    priority: integer('priority').notNull(),
    caseSensitive: boolean('case_sensitive').notNull(),
    wholeWords: boolean('whole_words').notNull(),
    scanDepth: integer('scan_depth').notNull(),
    recursive: boolean('recursive').notNull(),
    sticky: integer('sticky').notNull(),
    cooldown: integer('cooldown').notNull(),
    delay: integer('delay').notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('story_cards_story_id_idx').on(t.storyId, t.id)],
);

/**
 * What the narrator was sent for one version of a reply. `keyed` and `on` list the cards whose key
 * brought them in and every card that was on (keyed, recursion or sticky): a turn reads them back
 * from the story's shown replies to derive sticky, cooldown and delay, so undo and erase leave those
 * right with no counter to fix.
 */
export const narratorContexts = pgTable(
  'narrator_contexts',
  {
    messageId: integer('message_id')
      .notNull()
      .references(() => storyMessages.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    keyed: integer('keyed').array().notNull(),
    on: integer('on').array().notNull(),
    record: jsonb('record').$type<NarratorContext>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.messageId, t.version] })],
);
