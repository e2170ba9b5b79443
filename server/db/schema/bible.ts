// The story bible: lasting facts (entity, attribute, value) taken from the turns as they are folded
// into memory (domains/story/bible). A fact belongs to the message of the turn it came from and
// counts while that message is shown: undo and erase take it away, redo brings it back, and a fact
// of a message deleted goes with it. Which fact of an entity's attribute is current, and which are
// its history, is worked out when the bible is read (the newest turn wins), so it stays right
// through every undo without a stored chain to repair.
import { boolean, index, integer, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';
import { stories, storyMessages } from './stories';

export const storyFacts = pgTable(
  'story_facts',
  {
    id: serial('id').primaryKey(),
    storyId: integer('story_id')
      .notNull()
      .references(() => stories.id, { onDelete: 'cascade' }),
    messageId: integer('message_id')
      .notNull()
      .references(() => storyMessages.id, { onDelete: 'cascade' }),
    turn: integer('turn').notNull(),
    entity: text('entity').notNull(),
    attribute: text('attribute').notNull(),
    value: text('value').notNull(),
    /** Sent with every turn. */
    pinned: boolean('pinned').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [index('story_facts_story_idx').on(t.storyId, t.id), index('story_facts_message_idx').on(t.messageId)],
);
