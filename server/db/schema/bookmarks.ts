// A player's bookmarks on story messages.
import { index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { createdAt } from './columns';
import { stories } from './stories';

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
