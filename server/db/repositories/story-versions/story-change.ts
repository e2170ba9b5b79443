// What every change to a story's messages shares: the message as a change reads and answers it,
// the transaction holding the owner's story row (only while no reply is being written, so a turn
// never reads half a change and two changes never interleave), the shown message locked for it,
// and the premise kept in step with the opening message's text.
import { sql } from 'drizzle-orm';
import type { ReplyUsage } from '@shared/schemas/story';
import type { Db } from '../../client';
import type { Tx } from '../pieces';
import { MAX_ID, rows } from '../sql-values';

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

export const messageColumns = sql.raw(
  `id, role, content, turn, is_initial as "isInitial", version, versions, to_json(created_at) #>> '{}' as "createdAt"`,
);

/**
 * Runs `work` in a transaction holding the owner's story row: 'missing' when the story is not
 * theirs, 'busy' while a reply is being written (its lease is live).
 */
export async function changing<T>(
  db: Db,
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
export async function shownMessage(tx: Tx, storyId: number, messageId: number): Promise<VersionedMessage | null> {
  if (messageId > MAX_ID) return null;
  const [row] = await rows<VersionedMessage>(
    tx,
    sql`select ${messageColumns} from story_messages where id = ${messageId} and story_id = ${storyId} and state = 'shown' for update`,
  );
  return row ?? null;
}

/** The premise message is the pinned premise too: a change to its text is a change to the premise. */
export async function syncPremise(tx: Tx, storyId: number, message: VersionedMessage): Promise<void> {
  if (message.isInitial) await tx.execute(sql`update stories set premise = ${message.content} where id = ${storyId}`);
}
