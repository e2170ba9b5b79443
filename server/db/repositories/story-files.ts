// A story as a file. Reading one for an export: the story, its shown messages, their pictures and
// versions as one consistent snapshot (a read-only REPEATABLE READ transaction), the messages read
// in batches so no single answer is the whole story. Writing an imported story in one transaction:
// the story, its messages in order, the memory's reach and the pictures the importer may show.
// Either all of it lands or none of it does.
import { and, asc, eq, gt, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '../client';
import type { MessageVersion, MessageVersionKind } from '@shared/schemas/story-versions';
import { sceneImages, stories, storyMessages } from '../schema';
import { createImagesRepository } from './images';
import { assertWithinQuotas, countRowsInBulk, type QuotaCheck } from './quotas';
import { MAX_ID, rows } from './sql-values';
import { createStoryVersionsRepository } from './story-versions';

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

/** Rows per insert (one array parameter per column). */
const BATCH = 1000;
/**
 * Text per piece of an import (UTF-8 at most three bytes a UTF-16 unit): each piece is its own
 * transaction, and a transaction has the embedded database's one session to itself, so this bounds
 * how long another request waits behind an import (tens of milliseconds).
 */
const PIECE_BYTES = 256 * 1024;

/** A transaction's handle, as Drizzle gives it. */
type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** One column of rows as a single array parameter (node-postgres writes it as a PostgreSQL array). */
const column = <Row, Value>(list: Row[], value: (row: Row) => Value) => sql.param(list.map(value));
/** Messages per read of a snapshot: each answer stays a few hundred KB, parsed between other requests' work. */
const READ_BATCH = 500;

/** A shown message of an exported story, with the picture of its shown version and, when it has several, its versions. */
export interface SnapshotMessage {
  id: number;
  role: 'user' | 'assistant';
  content: string;
  turn: number;
  isInitial: boolean;
  version: number;
  createdAt: Date;
  picture?: { hash: string; scene: string };
  history?: MessageVersion[];
}

export interface StorySnapshot {
  title: string | null;
  premise: string;
  memory: string;
  memoryThroughId: number;
  notes: string;
  messages: SnapshotMessage[];
}

export function createStoryFilesRepository(db: Db) {
  /** Runs `write` over `rows` in pieces of at most BATCH rows and PIECE_BYTES of text, each piece its own transaction with the quota counters counting per statement. */
  async function inPieces<Row>(list: Row[], textOf: (row: Row) => string, write: (tx: Tx, piece: Row[]) => Promise<void>): Promise<void> {
    for (let start = 0; start < list.length; ) {
      let end = start;
      let bytes = 0;
      while (end < list.length && end - start < BATCH && (end === start || bytes + textOf(list[end]).length * 3 <= PIECE_BYTES)) {
        bytes += textOf(list[end]).length * 3;
        end += 1;
      }
      const piece = list.slice(start, end);
      await db.transaction(async (tx) => {
        await countRowsInBulk(tx);
        await write(tx, piece);
      });
      start = end;
    }
  }

  /** The messages in story order; their ids, in the same order. */
  async function writeMessages(storyId: number, messages: ImportedMessage[]): Promise<number[]> {
    const ids: number[] = [];
    // Rows go in as one array per column (unnest), not as Drizzle's per-value insert: building
    // that for a 5 MB file's 50,000 versions took seconds of the event loop, 40 ms a batch.
    await inPieces(messages, (m) => m.content, async (tx, batch) => {
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
    });
    return ids;
  }

  async function writeVersions(messages: ImportedMessage[], ids: number[]): Promise<void> {
    const versionRows = messages.flatMap((m, i) => (m.versions ?? []).map((v, n) => ({ messageId: ids[i], version: n + 1, kind: v.kind, content: v.content, createdAt: v.createdAt })));
    await inPieces(versionRows, (v) => v.content, async (tx, batch) => {
      await tx.execute(
        sql`insert into message_versions (message_id, version, kind, content, created_at)
            select * from unnest(${column(batch, (v) => v.messageId)}::int[], ${column(batch, (v) => v.version)}::int[],
              ${column(batch, (v) => v.kind)}::text[], ${column(batch, (v) => v.content)}::text[], ${column(batch, (v) => v.createdAt)}::timestamptz[])`,
      );
    });
  }

  /**
   * A picture comes back only for a player who already has it in a story of theirs: a content hash
   * seen in someone's shared link must not make their picture the importer's.
   */
  async function writePictures(tx: Tx, input: { userId: number; now: Date; messages: ImportedMessage[] }, storyId: number, ids: number[]): Promise<void> {
    const wanted = [...new Set(input.messages.flatMap((m) => (m.image ? [m.image.hash] : [])))];
    if (wanted.length === 0) return;
    const owned = await tx
      .selectDistinct({ hash: sceneImages.assetHash })
      .from(sceneImages)
      .where(and(eq(sceneImages.userId, input.userId), eq(sceneImages.status, 'ready'), inArray(sceneImages.assetHash, wanted)));
    const mine = new Set(owned.map((r) => r.hash));
    const pictures = input.messages.flatMap((m, i) =>
      m.image && mine.has(m.image.hash) && m.role === 'assistant'
        ? [{ userId: input.userId, storyId, messageId: ids[i], version: m.version ?? 1, status: 'ready' as const, scene: m.image.alt, assetHash: m.image.hash, attempts: 1, createdAt: input.now, updatedAt: input.now }]
        : [],
    );
    if (pictures.length > 0) await tx.insert(sceneImages).values(pictures);
  }

  return {
    /**
     * The owner's story as it stands at one moment, for an export; null when it is not theirs.
     * One read-only REPEATABLE READ transaction: a turn saved meanwhile is either wholly in it or
     * not at all, on PostgreSQL and PGlite alike. Pictures only when `pictures` (they are on).
     */
    async snapshot(storyId: number, userId: number, pictures: boolean): Promise<StorySnapshot | null> {
      if (storyId > MAX_ID) return null;
      return db.transaction(
        async (tx) => {
          const [story] = await tx
            .select({ title: stories.title, premise: stories.premise, memory: stories.memory, memoryThroughId: stories.memoryThroughId, notes: stories.notes })
            .from(stories)
            .where(and(eq(stories.id, storyId), eq(stories.userId, userId), eq(stories.importing, false)));
          if (!story) return null;
          const images = createImagesRepository(tx);
          const versions = createStoryVersionsRepository(tx);
          const messages: SnapshotMessage[] = [];
          for (let after = 0; ; ) {
            const batch = await tx
              .select({
                id: storyMessages.id,
                role: storyMessages.role,
                content: storyMessages.content,
                turn: storyMessages.turn,
                isInitial: storyMessages.isInitial,
                version: storyMessages.version,
                versions: storyMessages.versions,
                createdAt: storyMessages.createdAt,
              })
              .from(storyMessages)
              .where(and(eq(storyMessages.storyId, storyId), eq(storyMessages.state, 'shown'), gt(storyMessages.id, after)))
              .orderBy(asc(storyMessages.id))
              .limit(READ_BATCH);
            if (batch.length === 0) break;
            const drawn = pictures ? await images.readyHashes(batch.filter((m) => m.role === 'assistant').map((m) => m.id)) : new Map<number, { hash: string; scene: string }>();
            const histories = await versions.versionsOfMessages(batch.filter((m) => m.versions > 1).map((m) => m.id));
            for (const { versions: _count, ...message } of batch) {
              const picture = drawn.get(message.id);
              const history = histories.get(message.id);
              messages.push({ ...message, ...(picture ? { picture } : {}), ...(history ? { history } : {}) });
            }
            if (batch.length < READ_BATCH) break;
            after = batch[batch.length - 1].id;
          }
          return { ...story, messages };
        },
        { isolationLevel: 'repeatable read', accessMode: 'read only' },
      );
    },

    /**
     * Writes an imported story. The story is hidden (`importing`) while its rows go in, a few hundred
     * KB at a time, each piece its own short transaction: the embedded database is one session, and a
     * 5 MB file written in one transaction held every other request for a second. The last piece
     * shows it; a failure (a quota, the database) deletes it, and one left by a process that died is
     * deleted at the next start or by housekeeping. So a file still lands whole or not at all.
     */
    async importStory(input: {
      userId: number;
      title: string;
      premise: string;
      memory: string;
      /** How many of the messages the memory summarises. */
      memoryCovers: number;
      notes: string;
      createdAt: Date;
      now: Date;
      messages: ImportedMessage[];
      /** Throws QuotaExceeded (keeping nothing) when the story takes the account past these. */
      quotas: QuotaCheck;
    }): Promise<number> {
      const storyId = await db.transaction(async (tx) => {
        const [story] = await tx
          .insert(stories)
          .values({ userId: input.userId, title: input.title, premise: input.premise, memory: input.memory, notes: input.notes, importing: true, createdAt: input.createdAt, updatedAt: input.now })
          .returning({ id: stories.id });
        // One story too many is known before its messages are written.
        await assertWithinQuotas(tx, input.userId, { maxStories: input.quotas.maxStories });
        return story.id;
      });
      try {
        const ids = await writeMessages(storyId, input.messages);
        await writeVersions(input.messages, ids);
        await db.transaction(async (tx) => {
          if (input.memoryCovers > 0) await tx.update(stories).set({ memoryThroughId: ids[input.memoryCovers - 1] }).where(eq(stories.id, storyId));
          await writePictures(tx, input, storyId, ids);
          await tx.update(stories).set({ importing: false }).where(eq(stories.id, storyId));
          await assertWithinQuotas(tx, input.userId, input.quotas);
        });
      } catch (error) {
        await db.delete(stories).where(eq(stories.id, storyId));
        throw error;
      }
      return storyId;
    },

    /** Deletes stories whose import never finished (its process died): all of them at start-up on the embedded database, else those begun before `before`. */
    async deleteAbandonedImports(before?: Date): Promise<number> {
      const gone = await db
        .delete(stories)
        .where(and(eq(stories.importing, true), before ? lt(stories.updatedAt, before) : undefined))
        .returning({ id: stories.id });
      return gone.length;
    },
  };
}
export type StoryFilesRepository = ReturnType<typeof createStoryFilesRepository>;
