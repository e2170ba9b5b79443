// The memory bank: every shown message cut into passages (whole sentences, about 60 words) with
// their terms, the rows retrieval ranks (domains/story/memory). A passage belongs to one version of
// its message and is live while the message shows that version (undo, erase, an edit and a new
// reply turn it off, a redo on again); the texts recalled are read joined with the messages, so a
// passage of an undone, erased or replaced reply is never sent.
import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  unique,
} from 'drizzle-orm/pg-core';
import { bytea } from './columns';
import { stories, storyMessages } from './stories';

export const memoryPassages = pgTable(
  'memory_passages',
  {
    id: serial('id').primaryKey(),
    storyId: integer('story_id')
      .notNull()
      .references(() => stories.id, { onDelete: 'cascade' }),
    messageId: integer('message_id')
      .notNull()
      .references(() => storyMessages.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    part: smallint('part').notNull(),
    turn: integer('turn').notNull(),
    role: text('role', { enum: ['user', 'assistant'] }).notNull(),
    text: text('text').notNull(),
    /** Its distinct terms (memory/terms.ts) and how often each occurs, in the same order. */
    terms: text('terms').array().notNull(),
    counts: integer('counts').array().notNull(),
    /** Its terms counted with repeats: BM25's passage length. */
    length: integer('length').notNull(),
    /**
     * Its message shows it now (shown, at this version): kept by a trigger on story_messages, so the
     * story's term statistics are counted without joining every message. Reads of texts still join.
     */
    live: boolean('live').notNull().default(true),
  },
  (t) => [
    unique('memory_passages_message_part').on(t.messageId, t.version, t.part),
    index('memory_passages_story_idx').on(t.storyId, t.messageId),
  ],
);

/**
 * Each story's term statistics over its live passages: how many hold each term (BM25's document
 * frequency), and how many there are with their total length. New passages are counted by the
 * statement that writes them; triggers on memory_passages write each flip of `live` and each deletion
 * as rows of memory_deltas (migration 0019), which the memory bank's next run adds in
 * (memoryBank.applyDeltas). Retrieval reads the few rows of a query's terms instead of counting over
 * the story.
 */
export const memoryTerms = pgTable(
  'memory_terms',
  {
    storyId: integer('story_id')
      .notNull()
      .references(() => stories.id, { onDelete: 'cascade' }),
    term: text('term').notNull(),
    holding: integer('holding').notNull(),
  },
  (t) => [primaryKey({ columns: [t.storyId, t.term] })],
);

/**
 * A story's totals: its live passages and their total length; how many terms memory_terms keeps for
 * it (at most MAX_STORY_TERMS, repositories/memory-statistics.ts), and whether a term was ever left out
 * for want of room (`saturated`): from then on no new term is kept, so a term without a row is one
 * the story may hold (retrieval takes it as rare) rather than one it does not.
 */
export const memoryTotals = pgTable('memory_totals', {
  storyId: integer('story_id')
    .primaryKey()
    .references(() => stories.id, { onDelete: 'cascade' }),
  passages: integer('passages').notNull(),
  length: bigint('length', { mode: 'number' }).notNull(),
  terms: integer('terms').notNull().default(0),
  saturated: boolean('saturated').notNull().default(false),
});

/**
 * Changes to the term statistics not yet added in: one row per term (+1 or -1 passages holding it)
 * and one with the term '' for the totals. Only triggers insert here, so a player's undo or edit
 * never waits on the statistics. No foreign key: a story being deleted still writes its last rows,
 * which the next indexing job of a story that is gone throws away.
 */
export const memoryDeltas = pgTable(
  'memory_deltas',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    storyId: integer('story_id').notNull(),
    term: text('term').notNull(),
    holding: integer('holding').notNull(),
    length: bigint('length', { mode: 'number' }).notNull(),
  },
  (t) => [index('memory_deltas_story_idx').on(t.storyId, t.id)],
);

/**
 * Each passage's vector from the embeddings provider (EMBEDDINGS_PROVIDER), a signed byte a
 * dimension (repositories/memory-vectors.ts, quantized), with the model that made it: a passage
 * embedded by another model counts as not embedded and is embedded again. `seq` grows with every write, so a process's vector cache
 * (domains/story/memory/vector-cache.ts) reads only what is new since its last read. No pgvector:
 * PGlite has none, and a story's few thousand vectors are compared in the process.
 */
export const memoryVectors = pgTable(
  'memory_vectors',
  {
    passageId: integer('passage_id')
      .primaryKey()
      .references(() => memoryPassages.id, { onDelete: 'cascade' }),
    storyId: integer('story_id')
      .notNull()
      .references(() => stories.id, { onDelete: 'cascade' }),
    model: text('model').notNull(),
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    vector: bytea('vector').notNull(),
  },
  (t) => [index('memory_vectors_story_seq_idx').on(t.storyId, t.seq)],
);
