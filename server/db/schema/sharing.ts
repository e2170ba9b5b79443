// Shared story snapshots, written in pieces under a hidden share, and the pictures they show.
import { boolean, index, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { createdAt } from './columns';
import { stories } from './stories';

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
