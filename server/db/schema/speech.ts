// Server-voice clips kept per message sentence and voice, replayed free.
import { integer, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { bytea, createdAt } from './columns';
import { storyMessages } from './stories';

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
