// A story as it stands at one moment, for an export or a share: the story and its shown messages'
// heads (version, versions, picture) in one short read-only REPEATABLE READ transaction, then their
// texts in batches outside it (a version's text never changes, so the heads say which to read). No
// single answer is the whole story, and the embedded database's one session is never held for it.
import { and, eq, sql } from 'drizzle-orm';
import type { MessageVersion } from '@shared/schemas/story-versions';
import type { Db } from '../../client';
import { stories } from '../../schema';
import { MAX_ID, PIECE_BYTES, rows } from '../sql-values';

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
  /** The catalogue narrator the story names; null: the default. */
  narrator: string | null;
  messages: SnapshotMessage[];
  /** False when the reading stopped early, its texts past the `maxTextBytes` asked for (messages then hold what was read). */
  complete: boolean;
}

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
export async function snapshot(
  db: Db,
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
          narrator: stories.narrator,
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
    const batch = await textsOf(db, heads, versions);
    if (!batch) return null;
    messages.push(...batch);
    if (Number.isFinite(maxTextBytes)) for (const message of batch) textBytes += Buffer.byteLength(message.content);
    count = Math.max(
      1,
      Math.min(READ_BATCH, Math.floor((heads.length * PIECE_BYTES) / Math.max(textBytesOf(batch), 1))),
    );
  }
  return { ...moment.story, messages, complete: textBytes <= maxTextBytes };
}

/**
 * The messages of these heads with the texts the heads name: a message with one version then has
 * its text in its row, unless it gained versions since (then its first version holds that text);
 * one with several has them all in message_versions. With `versions`, every version is read (of
 * which the heads' count); without, only the shown one: a Markdown file or a share shows no other,
 * and a story of many versions read whole for one was most of the work. Null when a text is gone
 * (the story was deleted meanwhile).
 */
async function textsOf(db: Db, heads: MessageHeadRow[], versions: boolean): Promise<SnapshotMessage[] | null> {
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
    if (content === undefined || (versions && head.versions > 1 && (history?.length ?? 0) < head.versions)) return null;
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
