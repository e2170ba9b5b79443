// An imported story written: in pieces, each its own short transaction, the story hidden
// (`importing`) until the last piece shows it, so the embedded database's one session is never held
// for the whole file and the file still lands whole or not at all. Rows go in as one array per
// column (unnest), not as Drizzle's per-value insert: building that for a 5 MB file's 50,000
// versions took seconds of the event loop, 40 ms a batch.
import { eq, sql } from 'drizzle-orm';
import type { BibleFileFact } from '@shared/schemas/story-bible';
import type { StoryCardFields } from '@shared/schemas/story-cards';
import type { MessageVersionKind } from '@shared/schemas/story-versions';
import type { Db } from '../../client';
import { sceneImages, stories, storyCards, storyFacts } from '../../schema';
import { inPieces, removeHiddenStory } from '../pieces';
import { assertWithinQuotas, type QuotaCheck } from '../quotas';
import { rows } from '../sql-values';

/** The story of a file, as the import writes it (dates as dates). */
export interface ImportedStory {
  title: string;
  premise: string;
  memory: string;
  /** How many of the messages the memory summarises. */
  memoryCovers: number;
  notes: string;
  createdAt: Date;
  /** The story's generation settings, when the file has them. */
  settings?: {
    replyLength: 'short' | 'medium' | 'long';
    temperature: number | null;
    /** The catalogue narrator that writes it; unset: the default. */
    narrator?: string;
  };
  /** The story's cards (version 3 files), in order. */
  cards: StoryCardFields[];
  /** The story bible's facts, each by the index of its message among the file's messages. */
  bible: BibleFileFact[];
}

export interface ImportedMessage {
  role: 'user' | 'assistant';
  content: string;
  turn: number;
  isInitial: boolean;
  createdAt: Date;
  /** A stored picture (by content hash) and its description, shown only if the importer may. */
  image?: { hash: string; alt: string };
  /** Every version when the message has several, oldest first, and the one shown (1-based). */
  versions?: Array<{ kind: MessageVersionKind; content: string; createdAt: Date }>;
  version?: number;
}

/** An import as the repository takes it: the file's story and messages, for whom, and within what. */
export type StoryImport = Omit<ImportedStory, 'cards'> & {
  userId: number;
  now: Date;
  messages: ImportedMessage[];
  /** The cards with their contents' tokens counted. */
  cards: Array<StoryCardFields & { tokens: number }>;
  /** Throws QuotaExceeded (keeping nothing) when the story takes the account past these. */
  quotas: QuotaCheck;
};

/** A text's most bytes in UTF-8, three a UTF-16 unit: known without encoding it. */
const textBytes = (text: string) => text.length * 3;
/** One column of rows as a single array parameter (node-postgres writes it as a PostgreSQL array). */
const column = <Row, Value>(list: Row[], value: (row: Row) => Value) => sql.param(list.map(value));

/**
 * Writes an imported story. The story is hidden (`importing`) while its rows go in, a few hundred
 * KB at a time, each piece its own short transaction: the embedded database is one session, and a
 * 5 MB file written in one transaction held every other request for a second. The last piece
 * shows it; a failure (a quota, the database) deletes it, and one left by a process that died is
 * deleted at the next start or by housekeeping. So a file still lands whole or not at all.
 */
export async function importStory(db: Db, input: StoryImport): Promise<number> {
  const storyId = await db.transaction(async (tx) => {
    const [story] = await tx
      .insert(stories)
      .values({
        userId: input.userId,
        title: input.title,
        premise: input.premise,
        memory: input.memory,
        notes: input.notes,
        replyLength: input.settings?.replyLength ?? 'medium',
        temperature: input.settings?.temperature ?? null,
        narrator: input.settings?.narrator ?? null,
        importing: true,
        createdAt: input.createdAt,
        updatedAt: input.now,
      })
      .returning({ id: stories.id });
    // One story too many is known before its messages are written.
    await assertWithinQuotas(tx, input.userId, { maxStories: input.quotas.maxStories });
    return story.id;
  });
  try {
    const ids = await writeMessages(db, storyId, input.messages);
    await writeVersions(db, input.messages, ids);
    await inPieces(
      db,
      input.cards,
      (card) => textBytes(card.content),
      async (tx, piece) => {
        await tx
          .insert(storyCards)
          .values(piece.map((card) => ({ ...card, storyId, createdAt: input.now, updatedAt: input.now })));
      },
    );
    await inPieces(
      db,
      input.bible,
      (fact) => textBytes(fact.entity + fact.attribute + fact.value),
      async (tx, piece) => {
        await tx.insert(storyFacts).values(
          piece.map(({ message, ...fact }) => ({
            ...fact,
            storyId,
            messageId: ids[message],
            createdAt: input.now,
          })),
        );
      },
    );
    await inPieces(
      db,
      await picturesOf(db, input, storyId, ids),
      (p) => textBytes(p.scene),
      async (tx, piece) => {
        await tx.insert(sceneImages).values(piece);
      },
    );
    await db.transaction(async (tx) => {
      if (input.memoryCovers > 0)
        await tx
          .update(stories)
          .set({ memoryThroughId: ids[input.memoryCovers - 1] })
          .where(eq(stories.id, storyId));
      await tx.update(stories).set({ importing: false }).where(eq(stories.id, storyId));
      await assertWithinQuotas(tx, input.userId, input.quotas);
    });
  } catch (error) {
    await removeHiddenStory(db, storyId);
    throw error;
  }
  return storyId;
}

/** The messages in story order; their ids, in the same order. */
async function writeMessages(db: Db, storyId: number, messages: ImportedMessage[]): Promise<number[]> {
  const ids: number[] = [];
  await inPieces(
    db,
    messages,
    (m) => textBytes(m.content),
    async (tx, batch) => {
      const inserted = await rows<{ id: number }>(
        tx,
        sql`insert into story_messages (story_id, role, content, turn, is_initial, attempts, version, versions, created_at)
          select ${storyId}, m.role, m.content, m.turn, m.is_initial, case when m.role = 'user' then 1 else 0 end, m.version, m.versions, m.created_at
          from unnest(${column(batch, (m) => m.role)}::text[], ${column(batch, (m) => m.content)}::text[], ${column(batch, (m) => m.turn)}::int[],
            ${column(batch, (m) => m.isInitial)}::boolean[], ${column(batch, (m) => m.version ?? 1)}::int[], ${column(batch, (m) => m.versions?.length ?? 1)}::int[],
            ${column(batch, (m) => m.createdAt)}::timestamptz[]) with ordinality as m(role, content, turn, is_initial, version, versions, created_at, n)
          order by m.n
          returning id`,
      );
      // Ids are drawn in the order the rows are inserted (by n); sorted to be sure.
      ids.push(...inserted.map((r) => r.id).sort((a, b) => a - b));
    },
  );
  return ids;
}

async function writeVersions(db: Db, messages: ImportedMessage[], ids: number[]): Promise<void> {
  const versionRows = messages.flatMap((m, i) =>
    (m.versions ?? []).map((v, n) => ({
      messageId: ids[i],
      version: n + 1,
      kind: v.kind,
      content: v.content,
      createdAt: v.createdAt,
    })),
  );
  await inPieces(
    db,
    versionRows,
    (v) => textBytes(v.content),
    async (tx, batch) => {
      await tx.execute(
        sql`insert into message_versions (message_id, version, kind, content, created_at)
          select * from unnest(${column(batch, (v) => v.messageId)}::int[], ${column(batch, (v) => v.version)}::int[],
            ${column(batch, (v) => v.kind)}::text[], ${column(batch, (v) => v.content)}::text[], ${column(batch, (v) => v.createdAt)}::timestamptz[])`,
      );
    },
  );
}

/**
 * The pictures of an imported story's replies as scene rows. A picture comes back only for a
 * player who already has it in a story of theirs: a content hash seen in someone's shared link must
 * not make their picture the importer's. Read as one array parameter, and written in pieces like
 * the messages: a file may name 5,000 pictures, and a list of 5,000 parameters in the last
 * transaction held it 60 ms.
 */
async function picturesOf(
  db: Db,
  input: { userId: number; now: Date; messages: ImportedMessage[] },
  storyId: number,
  ids: number[],
) {
  const wanted = [...new Set(input.messages.flatMap((m) => (m.image && m.role === 'assistant' ? [m.image.hash] : [])))];
  if (wanted.length === 0) return [];
  const owned = await rows<{ hash: string }>(
    db,
    sql`select distinct asset_hash as hash from scene_images where user_id = ${input.userId} and status = 'ready' and asset_hash = any(${sql.param(wanted)}::text[])`,
  );
  const mine = new Set(owned.map((r) => r.hash));
  return input.messages.flatMap((m, i) =>
    m.image && mine.has(m.image.hash) && m.role === 'assistant'
      ? [
          {
            userId: input.userId,
            storyId,
            messageId: ids[i],
            version: m.version ?? 1,
            status: 'ready' as const,
            scene: m.image.alt,
            assetHash: m.image.hash,
            attempts: 1,
            createdAt: input.now,
            updatedAt: input.now,
          },
        ]
      : [],
  );
}
