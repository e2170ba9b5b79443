// A story as a file. Reading one for an export: the story and its shown messages' heads (version,
// versions, picture) as one moment in a short read-only transaction, then their texts in batches
// (a version's text never changes), so no single answer is the whole story and the embedded
// database's one session is never held for it. Writing an imported story: in pieces, each its own
// short transaction, the story hidden until the last piece shows it; all of it lands or none does.
import { and, eq, lt, sql } from 'drizzle-orm';
import type { Db } from '../client';
import type { MessageVersion, MessageVersionKind } from '@shared/schemas/story-versions';
import type { BibleFileFact } from '@shared/schemas/story-bible';
import type { StoryCardFields } from '@shared/schemas/story-cards';
import { sceneImages, stories, storyCards, storyFacts } from '../schema';
import { assertWithinQuotas, type QuotaCheck } from './quotas';
import { inPieces, removeHiddenStory } from './pieces';
import { MAX_ID, PIECE_BYTES, rows } from './sql-values';

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
  settings?: { replyLength: 'short' | 'medium' | 'long'; temperature: number | null };
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

/** A text's most bytes in UTF-8, three a UTF-16 unit: known without encoding it. */
const textBytes = (text: string) => text.length * 3;
/** One column of rows as a single array parameter (node-postgres writes it as a PostgreSQL array). */
const column = <Row, Value>(list: Row[], value: (row: Row) => Value) => sql.param(list.map(value));
/**
 * Messages per read of a snapshot's texts: the first read takes FIRST_READ_BATCH, and each next one
 * as many as the last read's bytes per message say fit in PIECE_BYTES (at most READ_BATCH). The heads
 * do not know their texts' sizes, and a fixed count read a 5 MB story of long replies, or of
 * messages with hundreds of versions, in one answer that held the embedded database's one session.
 */
const FIRST_READ_BATCH = 10;
const READ_BATCH = 500;

/** A message's id and a version number as one: more than a message's versions can number (MESSAGE_MAX_VERSIONS). */
const PAIR_BASE = 1000;

/** The UTF-8 bytes a read of texts answered: each message's shown text and its versions'. */
const textBytesOf = (messages: SnapshotMessage[]) =>
  messages.reduce(
    (sum, m) =>
      sum + Buffer.byteLength(m.content) + (m.history ?? []).reduce((all, v) => all + Buffer.byteLength(v.content), 0),
    0,
  );

/** A shown message at the snapshot's moment: which version it shows, how many it has, its picture. */
interface MessageHeadRow {
  id: number;
  role: 'user' | 'assistant';
  turn: number;
  isInitial: boolean;
  version: number;
  versions: number;
  createdAt: string;
  pictureHash: string | null;
  pictureScene: string | null;
}

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

/** How far a snapshot reads: its shown texts up to `maxTextBytes` (unbounded by default), and every version of each message (by default) or only the shown one. */
export interface SnapshotReading {
  maxTextBytes?: number;
  versions?: boolean;
}

export interface StorySnapshot {
  title: string | null;
  premise: string;
  memory: string;
  memoryThroughId: number;
  notes: string;
  replyLength: 'short' | 'medium' | 'long';
  temperature: number | null;
  messages: SnapshotMessage[];
  /** False when the reading stopped early, its texts past the `maxTextBytes` asked for (messages then hold what was read). */
  complete: boolean;
}

export function createStoryFilesRepository(db: Db) {
  /**
   * The messages of these heads with the texts the heads name: a message with one version then has
   * its text in its row, unless it gained versions since (then its first version holds that text);
   * one with several has them all in message_versions. With `versions`, every version is read (of
   * which the heads' count); without, only the shown one: a Markdown file or a share shows no other,
   * and a story of many versions read whole for one was most of the work. Null when a text is gone
   * (the story was deleted meanwhile).
   */
  async function textsOf(heads: MessageHeadRow[], versions: boolean): Promise<SnapshotMessage[] | null> {
    const ids = `{${heads.map((h) => h.id).join(',')}}`;
    // The (message, version) each head needs from message_versions when its row's text will not do.
    const shownPairs = () => `{${heads.map((h) => h.id * PAIR_BASE + (h.versions === 1 ? 1 : h.version)).join(',')}}`;
    const [single, versioned] = await Promise.all([
      rows<{ id: number; content: string }>(
        db,
        sql`select id, content from story_messages where id = any(${ids}::int[]) and versions = 1`,
      ),
      rows<{ messageId: number; version: number; kind: MessageVersion['kind']; content: string; createdAt: string }>(
        db,
        versions
          ? sql`select message_id as "messageId", version, kind, content, to_json(created_at) #>> '{}' as "createdAt"
                from message_versions where message_id = any(${ids}::int[]) order by message_id, version`
          : // Each (message, version) pair as one number, beside the ids, so that the index on message_id
            // drives the read whatever the planner's statistics say: a join of unnest() with
            // message_versions was planned as a scan of the whole table.
            sql`select message_id as "messageId", version, kind, content, to_json(created_at) #>> '{}' as "createdAt"
                from message_versions where message_id = any(${ids}::int[]) and message_id::bigint * ${PAIR_BASE} + version = any(${shownPairs()}::bigint[])`,
      ),
    ]);
    const current = new Map(single.map((r) => [r.id, r.content]));
    const histories = new Map<number, MessageVersion[]>();
    for (const { messageId, ...version } of versioned) {
      const history = histories.get(messageId);
      if (history) history.push(version);
      else histories.set(messageId, [version]);
    }
    const messages: SnapshotMessage[] = [];
    for (const head of heads) {
      const history = histories.get(head.id);
      const versionText = (version: number) => history?.find((v) => v.version === version)?.content;
      const content = head.versions === 1 ? (current.get(head.id) ?? versionText(1)) : versionText(head.version);
      if (content === undefined || (versions && head.versions > 1 && (history?.length ?? 0) < head.versions))
        return null;
      messages.push({
        id: head.id,
        role: head.role,
        content,
        turn: head.turn,
        isInitial: head.isInitial,
        version: head.version,
        createdAt: new Date(head.createdAt),
        ...(head.pictureHash ? { picture: { hash: head.pictureHash, scene: head.pictureScene ?? '' } } : {}),
        ...(versions && head.versions > 1 && history ? { history: history.slice(0, head.versions) } : {}),
      });
    }
    return messages;
  }

  /** The messages in story order; their ids, in the same order. */
  async function writeMessages(storyId: number, messages: ImportedMessage[]): Promise<number[]> {
    const ids: number[] = [];
    // Rows go in as one array per column (unnest), not as Drizzle's per-value insert: building
    // that for a 5 MB file's 50,000 versions took seconds of the event loop, 40 ms a batch.
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

  async function writeVersions(messages: ImportedMessage[], ids: number[]): Promise<void> {
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
    input: { userId: number; now: Date; messages: ImportedMessage[] },
    storyId: number,
    ids: number[],
  ) {
    const wanted = [
      ...new Set(input.messages.flatMap((m) => (m.image && m.role === 'assistant' ? [m.image.hash] : []))),
    ];
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

  return {
    /**
     * The owner's story as it stands at one moment, for an export; null when it is not theirs (or
     * went meanwhile). The moment is one short read-only REPEATABLE READ transaction: the story and
     * its shown messages' heads (which version each shows, how many it has, its picture). The texts
     * are read after it, in batches outside any transaction: a version's text never changes, so the
     * heads say exactly which to read, and the embedded database's one session is never held for
     * the whole story (a 5 MB story held it half a second, every other request waiting). With
     * `maxTextBytes`, reading stops at the batch whose shown texts pass it (a share's limit): a
     * story far past it is not read whole to be refused. `versions: false` reads the shown texts alone.
     */
    async snapshot(
      storyId: number,
      userId: number,
      pictures: boolean,
      { maxTextBytes = Number.POSITIVE_INFINITY, versions = true }: SnapshotReading = {},
    ): Promise<StorySnapshot | null> {
      if (storyId > MAX_ID) return null;
      const moment = await db.transaction(
        async (tx) => {
          const [story] = await tx
            .select({
              title: stories.title,
              premise: stories.premise,
              memory: stories.memory,
              memoryThroughId: stories.memoryThroughId,
              notes: stories.notes,
              replyLength: stories.replyLength,
              temperature: stories.temperature,
            })
            .from(stories)
            .where(and(eq(stories.id, storyId), eq(stories.userId, userId), eq(stories.importing, false)));
          if (!story) return null;
          const heads = await rows<MessageHeadRow>(
            tx,
            sql`select m.id, m.role, m.turn, m.is_initial as "isInitial", m.version, m.versions, to_json(m.created_at) #>> '{}' as "createdAt",
                  p.asset_hash as "pictureHash", p.scene as "pictureScene"
                from story_messages m
                left join scene_images p on ${pictures}::boolean and p.message_id = m.id and p.version = m.version and p.status = 'ready' and p.asset_hash is not null
                where m.story_id = ${storyId} and m.state = 'shown'
                order by m.id`,
          );
          return { story, heads };
        },
        { isolationLevel: 'repeatable read', accessMode: 'read only' },
      );
      if (!moment) return null;
      const messages: SnapshotMessage[] = [];
      let textBytes = 0;
      let count = FIRST_READ_BATCH;
      while (messages.length < moment.heads.length) {
        if (textBytes > maxTextBytes) return { ...moment.story, messages, complete: false };
        const heads = moment.heads.slice(messages.length, messages.length + count);
        const batch = await textsOf(heads, versions);
        if (!batch) return null;
        messages.push(...batch);
        if (Number.isFinite(maxTextBytes)) for (const message of batch) textBytes += Buffer.byteLength(message.content);
        count = Math.max(
          1,
          Math.min(READ_BATCH, Math.floor((heads.length * PIECE_BYTES) / Math.max(textBytesOf(batch), 1))),
        );
      }
      return { ...moment.story, messages, complete: textBytes <= maxTextBytes };
    },

    /**
     * Writes an imported story. The story is hidden (`importing`) while its rows go in, a few hundred
     * KB at a time, each piece its own short transaction: the embedded database is one session, and a
     * 5 MB file written in one transaction held every other request for a second. The last piece
     * shows it; a failure (a quota, the database) deletes it, and one left by a process that died is
     * deleted at the next start or by housekeeping. So a file still lands whole or not at all.
     */
    async importStory(
      input: Omit<ImportedStory, 'cards'> & {
        userId: number;
        now: Date;
        messages: ImportedMessage[];
        /** The cards with their contents' tokens counted. */
        cards: Array<StoryCardFields & { tokens: number }>;
        /** Throws QuotaExceeded (keeping nothing) when the story takes the account past these. */
        quotas: QuotaCheck;
      },
    ): Promise<number> {
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
        const ids = await writeMessages(storyId, input.messages);
        await writeVersions(input.messages, ids);
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
          await picturesOf(input, storyId, ids),
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
    },

    /**
     * Deletes the hidden stories whose import or deletion never finished (its process died): all of
     * them at start-up on the embedded database, else those begun before `before`. Each in pieces.
     */
    async deleteAbandonedImports(before?: Date): Promise<number> {
      const abandoned = await db
        .select({ id: stories.id })
        .from(stories)
        .where(and(eq(stories.importing, true), before ? lt(stories.updatedAt, before) : undefined));
      for (const { id } of abandoned) await removeHiddenStory(db, id);
      return abandoned.length;
    },
  };
}
export type StoryFilesRepository = ReturnType<typeof createStoryFilesRepository>;
