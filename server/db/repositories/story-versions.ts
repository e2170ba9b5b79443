// A story's messages under the player's control: versions (edit, select), undo, redo,
// erase and branch. Every change runs in one transaction holding the owner's story row, and only
// while no reply is being written, so a turn never reads half a change and two changes never
// interleave. Undo and erase set messages aside ('undone', grouped by where the cut was) rather than
// deleting them; redo brings back the group cut last. One that moves more messages than a piece
// (pieces.ts) goes on a piece a statement under the story's lease, which every turn and change
// waits out like a reply's. A cut that reaches into turns the memory has folded takes the memory
// back to the fold before it (story_memory_folds).
import { sql, type SQL } from 'drizzle-orm';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { MESSAGE_MAX_VERSIONS } from '@shared/schemas/quotas';
import type { ReplyUsage } from '@shared/schemas/story';
import type { MessageVersion, MessageVersionKind } from '@shared/schemas/story-versions';
import type { Db } from '../client';
import { ROWS_PER_PIECE, type Tx } from './pieces';
import { assertWithinQuotas } from './quotas';
import { MAX_ID, PIECE_BYTES, rows } from './sql-values';

export interface VersionedMessage {
  id: number;
  role: 'user' | 'assistant';
  content: string;
  turn: number;
  isInitial: boolean;
  version: number;
  versions: number;
  createdAt: string;
  /** What the shown version cost, where a change read it (choosing a version); null for an edit. */
  usage?: ReplyUsage | null;
}

export type Refusal = 'missing' | 'busy';
export type ChangeResult<T> = T | Refusal;

/** How long a change done in pieces holds the story at most (it lets go as soon as it is done). */
const CHANGE_LEASE_MS = 60_000;

const messageColumns = sql.raw(
  `id, role, content, turn, is_initial as "isInitial", version, versions, to_json(created_at) #>> '{}' as "createdAt"`,
);

export function createStoryVersionsRepository(db: Db) {
  /**
   * Runs `work` in a transaction holding the owner's story row: 'missing' when the story is not
   * theirs, 'busy' while a reply is being written (its lease is live).
   */
  async function changing<T>(
    storyId: number,
    userId: number,
    now: Date,
    work: (tx: Tx, story: { memoryThroughId: number }) => Promise<T>,
  ): Promise<ChangeResult<T>> {
    if (storyId > MAX_ID) return 'missing';
    return db.transaction(async (tx) => {
      const [story] = await rows<{ memoryThroughId: number; busy: boolean }>(
        tx,
        sql`select memory_through_id as "memoryThroughId", coalesce(generating_until > ${now.toISOString()}::timestamptz, false) as busy
            from stories where id = ${storyId} and user_id = ${userId} and not importing for update`,
      );
      if (!story) return 'missing';
      if (story.busy) return 'busy';
      return work(tx, story);
    });
  }

  /** A shown message of the story, locked for the change. */
  async function shownMessage(tx: Tx, storyId: number, messageId: number): Promise<VersionedMessage | null> {
    if (messageId > MAX_ID) return null;
    const [row] = await rows<VersionedMessage>(
      tx,
      sql`select ${messageColumns} from story_messages where id = ${messageId} and story_id = ${storyId} and state = 'shown' for update`,
    );
    return row ?? null;
  }

  /**
   * Sets aside the message `cutId` and every shown one after it, as one group redo brings back: the
   * memory goes back before them, and the last ROWS_PER_PIECE of them are set aside here; answers
   * their ids (a whole piece: more may be left, see inPiecesUnderLease).
   */
  async function setAside(tx: Tx, storyId: number, cutId: number, memoryThroughId: number): Promise<number[]> {
    const moved = await setAsidePiece(tx, storyId, cutId);
    if (memoryThroughId < cutId) return moved;
    // The memory summarises turns now set aside: back to the fold before them (none: no memory).
    await tx.execute(sql`
      with fold as (
        select through_id, memory from story_memory_folds where story_id = ${storyId} and through_id < ${cutId} order by through_id desc limit 1
      ), dropped as (
        delete from story_memory_folds where story_id = ${storyId} and through_id >= ${cutId}
      )
      update stories set memory = coalesce((select memory from fold), ''), memory_through_id = coalesce((select through_id from fold), 0)
      where id = ${storyId}`);
    return moved;
  }

  /**
   * Finishes a change whose first piece (`first`, its ids) went under the story's lock, one piece a
   * statement, each starting where the last one's ids ended. The story's lease (a reply's, which
   * every turn and change waits out) holds it meanwhile, so nothing is appended or changed between
   * pieces, and it lapses by itself if the process dies. Every piece leaves the story whole:
   * set-aside messages go from its end back, and come back from the cut on.
   */
  async function inPiecesUnderLease(
    storyId: number,
    until: Date,
    first: number[],
    piece: (from: number[]) => Promise<number[]>,
  ): Promise<void> {
    try {
      for (let moved = first; moved.length === ROWS_PER_PIECE;) {
        await nextTurn();
        moved = await piece(moved);
      }
    } finally {
      await db.execute(
        sql`update stories set generating_until = null where id = ${storyId} and generating_until = ${until.toISOString()}::timestamptz`,
      );
    }
  }

  /** Holds the story (locked by `changing`) for the pieces still to go. */
  async function lease(tx: Tx, storyId: number, now: Date): Promise<Date> {
    const until = new Date(now.getTime() + CHANGE_LEASE_MS);
    await tx.execute(
      sql`update stories set generating_until = ${until.toISOString()}::timestamptz where id = ${storyId}`,
    );
    return until;
  }

  /** Makes `content` the message's next version (kind `kind`) and shows it; the first change also keeps the original. */
  async function addVersion(
    tx: Tx,
    message: VersionedMessage,
    kind: MessageVersionKind,
    content: string,
    now: Date,
  ): Promise<VersionedMessage> {
    const next = message.versions + 1;
    await tx.execute(sql`
      insert into message_versions (message_id, version, kind, content, created_at, loop_guard, usage)
      select id, 1, 'original', content, created_at, loop_guard, usage from story_messages where id = ${message.id} and versions = 1
      union all
      select ${message.id}::int, ${next}::int, ${kind}::text, ${content}::text, ${now.toISOString()}::timestamptz, null, null`);
    // A new version is the player's words (an edit, a replacement), which cost nothing: the guard's
    // mark and the calls' cost were the old one's, which keeps them.
    await tx.execute(
      sql`update story_messages set content = ${content}, version = ${next}, versions = ${next}, loop_guard = null, usage = null where id = ${message.id}`,
    );
    return { ...message, content, version: next, versions: next };
  }

  /** The premise message is the pinned premise too: a change to its text is a change to the premise. */
  async function syncPremise(tx: Tx, storyId: number, message: VersionedMessage): Promise<void> {
    if (message.isInitial) await tx.execute(sql`update stories set premise = ${message.content} where id = ${storyId}`);
  }

  return {
    changing,
    shownMessage,

    /** Takes back the story's last turn (its last action and what follows); 'nothing' when only the opening is left. */
    async undo(storyId: number, userId: number, now: Date): Promise<ChangeResult<'done' | 'nothing'>> {
      const begun = await changing(storyId, userId, now, async (tx, story) => {
        const [last] = await rows<{ id: number }>(
          tx,
          sql`select id from story_messages where story_id = ${storyId} and state = 'shown' and role = 'user' and not is_initial order by id desc limit 1`,
        );
        if (!last) return 'nothing';
        const moved = await setAside(tx, storyId, last.id, story.memoryThroughId);
        return moved.length === ROWS_PER_PIECE ? { cut: last.id, moved, until: await lease(tx, storyId, now) } : 'done';
      });
      if (typeof begun === 'string') return begun;
      await inPiecesUnderLease(storyId, begun.until, begun.moved, (before) =>
        setAsidePiece(db, storyId, begun.cut, Math.min(...before)),
      );
      return 'done';
    },

    /**
     * Brings back the part set aside last, if it still follows the story's end: a new action sent
     * since then ends redo (those turns stay set aside, kept).
     */
    async redo(storyId: number, userId: number, now: Date): Promise<ChangeResult<'done' | 'nothing'>> {
      const begun = await changing(storyId, userId, now, async (tx) => {
        const [group] = await rows<{ cut: number | null }>(tx, sql`select ${redoGroup(storyId)} as cut`);
        if (group?.cut == null) return 'nothing';
        const cut = group.cut;
        const moved = await bringBackPiece(tx, storyId, cut);
        return moved.length === ROWS_PER_PIECE ? { cut, moved, until: await lease(tx, storyId, now) } : 'done';
      });
      if (typeof begun === 'string') return begun;
      await inPiecesUnderLease(storyId, begun.until, begun.moved, (after) =>
        bringBackPiece(db, storyId, begun.cut, Math.max(...after)),
      );
      return 'done';
    },

    /** Whether redo has something to bring back (the story's reads tell the client). */
    async canRedo(storyId: number): Promise<boolean> {
      const [row] = await rows<{ cut: number | null }>(db, sql`select ${redoGroup(storyId)} as cut`);
      return row?.cut != null;
    },

    /** Sets aside `fromId` and everything after it; 'opening' for the premise and its first reply. */
    async erase(
      storyId: number,
      userId: number,
      fromId: number,
      now: Date,
    ): Promise<ChangeResult<'done' | 'message' | 'opening'>> {
      const begun = await changing(storyId, userId, now, async (tx, story) => {
        const message = await shownMessage(tx, storyId, fromId);
        if (!message) return 'message';
        if (message.turn === 0) return 'opening';
        const moved = await setAside(tx, storyId, fromId, story.memoryThroughId);
        return moved.length === ROWS_PER_PIECE ? { moved, until: await lease(tx, storyId, now) } : 'done';
      });
      if (typeof begun === 'string') return begun;
      await inPiecesUnderLease(storyId, begun.until, begun.moved, (before) =>
        setAsidePiece(db, storyId, fromId, Math.min(...before)),
      );
      return 'done';
    },

    /**
     * Every version of a message, oldest first, a page at a time of at most PIECE_BYTES of text: a
     * message may keep 200 versions of 20,000 characters, which read at once held the embedded
     * database's one session and then the event loop 20-50 ms each. A message never changed has
     * only its original. Versions are only ever added, so pages by version number add up.
     */
    async *versionPages(message: VersionedMessage): AsyncGenerator<MessageVersion[]> {
      if (message.versions === 1) {
        yield [{ version: 1, kind: 'original', content: message.content, createdAt: message.createdAt }];
        return;
      }
      const sizes = await rows<{ version: number; bytes: number }>(
        db,
        sql`select version, octet_length(content) as bytes from message_versions where message_id = ${message.id} order by version`,
      );
      for (let start = 0; start < sizes.length;) {
        let end = start;
        for (let bytes = 0; end < sizes.length && (end === start || bytes + sizes[end].bytes <= PIECE_BYTES); end += 1)
          bytes += sizes[end].bytes;
        yield await rows<MessageVersion>(
          db,
          sql`select version, kind, content, to_json(created_at) #>> '{}' as "createdAt" from message_versions
              where message_id = ${message.id} and version between ${sizes[start].version} and ${sizes[end - 1].version} order by version`,
        );
        start = end;
      }
    },

    /** The versions of several messages (a story's export), each oldest first. */
    async versionsOfMessages(messageIds: number[]): Promise<Map<number, MessageVersion[]>> {
      const byMessage = new Map<number, MessageVersion[]>();
      if (messageIds.length === 0) return byMessage;
      const found = await rows<MessageVersion & { messageId: number }>(
        db,
        sql`select message_id as "messageId", version, kind, content, to_json(created_at) #>> '{}' as "createdAt"
            from message_versions where message_id = any(${`{${messageIds.join(',')}}`}::int[]) order by message_id, version`,
      );
      for (const { messageId, ...version } of found)
        byMessage.set(messageId, [...(byMessage.get(messageId) ?? []), version]);
      return byMessage;
    },

    /** A shown message of the owner's story, for reads (no lock). */
    async findShown(storyId: number, userId: number, messageId: number): Promise<VersionedMessage | null> {
      if (storyId > MAX_ID || messageId > MAX_ID) return null;
      const [row] = await rows<VersionedMessage>(
        db,
        sql`select ${messageColumns} from story_messages m
            where m.id = ${messageId} and m.story_id = ${storyId} and m.state = 'shown'
              and exists (select 1 from stories s where s.id = m.story_id and s.user_id = ${userId})`,
      );
      return row ?? null;
    },

    /**
     * The owner's edit as the message's next version. 'stale' (with the message as it is) when the
     * editor showed another version than the one shown now; 'versions' when the message has every
     * version it may keep. The version's picture stays with it. Throws QuotaExceeded (keeping
     * nothing) when the edit takes the owner's stored text past `maxStoredBytes`.
     */
    async edit(input: {
      storyId: number;
      userId: number;
      messageId: number;
      content: string;
      baseVersion: number | undefined;
      now: Date;
      /** The longest text this message may hold (by its role), checked under the lock. */
      check: (message: VersionedMessage) => void;
      maxStoredBytes: number;
    }): Promise<ChangeResult<VersionedMessage | { stale: VersionedMessage } | 'message' | 'versions'>> {
      return changing(input.storyId, input.userId, input.now, async (tx) => {
        const message = await shownMessage(tx, input.storyId, input.messageId);
        if (!message) return 'message';
        input.check(message);
        if (input.baseVersion !== undefined && input.baseVersion !== message.version) return { stale: message };
        if (message.content === input.content) return message;
        if (message.versions >= MESSAGE_MAX_VERSIONS) return 'versions';
        const edited = await addVersion(tx, message, 'edit', input.content, input.now);
        await tx.execute(sql`
          insert into scene_images (user_id, story_id, message_id, version, status, scene, asset_hash, attempts, created_at, updated_at)
          select user_id, story_id, message_id, ${edited.version}, status, scene, asset_hash, attempts, created_at, ${input.now.toISOString()}::timestamptz
          from scene_images where message_id = ${message.id} and version = ${message.version} and status = 'ready'`);
        await syncPremise(tx, input.storyId, edited);
        await assertWithinQuotas(tx, input.userId, { maxStoredBytes: input.maxStoredBytes });
        return edited;
      });
    },

    /** Shows version `version` of a message; 'version' when it has no such version. */
    async select(input: {
      storyId: number;
      userId: number;
      messageId: number;
      version: number;
      now: Date;
    }): Promise<ChangeResult<VersionedMessage | 'message' | 'version'>> {
      return changing(input.storyId, input.userId, input.now, async (tx) => {
        const message = await shownMessage(tx, input.storyId, input.messageId);
        if (!message) return 'message';
        if (input.version > message.versions) return 'version';
        if (input.version === message.version) return message;
        const [chosen] = await rows<{ content: string; loop_guard: string | null; usage: string | null }>(
          tx,
          sql`select content, loop_guard, usage::text as usage from message_versions where message_id = ${message.id} and version = ${input.version}`,
        );
        if (!chosen) return 'version';
        await tx.execute(
          sql`update story_messages set content = ${chosen.content}, version = ${input.version}, loop_guard = ${chosen.loop_guard}::text,
            usage = ${chosen.usage}::jsonb where id = ${message.id}`,
        );
        const shown = {
          ...message,
          content: chosen.content,
          version: input.version,
          usage: chosen.usage ? (JSON.parse(chosen.usage) as ReplyUsage) : null,
        };
        await syncPremise(tx, input.storyId, shown);
        return shown;
      });
    },
  };
}
export type StoryVersionsRepository = ReturnType<typeof createStoryVersionsRepository>;

/**
 * The group redo brings back: the smallest cut among set-aside messages after the story's last
 * shown one (a later undo always cuts earlier, so the smallest is the last made). Null when none.
 */
function redoGroup(storyId: number): SQL {
  return sql`(select min(undone_from) from story_messages
      where story_id = ${storyId} and state = 'undone'
        and id > coalesce((select id from story_messages where story_id = ${storyId} and state = 'shown' order by id desc limit 1), 0))`;
}

/**
 * Sets aside the last ROWS_PER_PIECE shown messages from `cutId` on and before `before` (the story's
 * end first); answers their ids. Each piece starts where the last one ended: scanned from the end
 * each time, every piece passed over the index entries of all the pieces before it.
 */
async function setAsidePiece(
  runner: Pick<Db, 'execute'>,
  storyId: number,
  cutId: number,
  before = MAX_ID,
): Promise<number[]> {
  const moved = await rows<{ id: number }>(
    runner,
    sql`update story_messages set state = 'undone', undone_from = ${cutId}
        where id in (select id from story_messages where story_id = ${storyId} and state = 'shown' and id >= ${cutId} and id < ${before} order by id desc limit ${ROWS_PER_PIECE})
        returning id`,
  );
  return moved.map((m) => m.id);
}

/** Brings back the first ROWS_PER_PIECE messages of the group set aside at `cut` after `after` (the cut first); answers their ids. */
async function bringBackPiece(runner: Pick<Db, 'execute'>, storyId: number, cut: number, after = 0): Promise<number[]> {
  const moved = await rows<{ id: number }>(
    runner,
    sql`update story_messages set state = 'shown', undone_from = null
        where id in (select id from story_messages where story_id = ${storyId} and state = 'undone' and undone_from = ${cut} and id > ${after} order by id limit ${ROWS_PER_PIECE})
        returning id`,
  );
  return moved.map((m) => m.id);
}
