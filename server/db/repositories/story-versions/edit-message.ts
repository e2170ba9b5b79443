// The owner's edit of a message, kept as its next version (the first change also keeps the
// original), under the change's lock: refused when the editor showed another version than the one
// shown now, or when the message has every version it may keep. The edited version keeps the
// picture of the one it replaces, and the edit is counted against the owner's stored text.
import { sql } from 'drizzle-orm';
import { MESSAGE_MAX_VERSIONS } from '@shared/schemas/quotas';
import type { MessageVersionKind } from '@shared/schemas/story-versions';
import type { Db } from '../../client';
import type { Tx } from '../pieces';
import { assertWithinQuotas } from '../quotas';
import { changing, shownMessage, syncPremise, type ChangeResult, type VersionedMessage } from './story-change';

export interface MessageEdit {
  storyId: number;
  userId: number;
  messageId: number;
  content: string;
  baseVersion: number | undefined;
  now: Date;
  /** The longest text this message may hold (by its role), checked under the lock. */
  check: (message: VersionedMessage) => void;
  maxStoredBytes: number;
}

/**
 * The owner's edit as the message's next version. 'stale' (with the message as it is) when the
 * editor showed another version than the one shown now; 'versions' when the message has every
 * version it may keep. The version's picture stays with it. Throws QuotaExceeded (keeping
 * nothing) when the edit takes the owner's stored text past `maxStoredBytes`.
 */
export async function editMessage(
  db: Db,
  input: MessageEdit,
): Promise<ChangeResult<VersionedMessage | { stale: VersionedMessage } | 'message' | 'versions'>> {
  return changing(db, input.storyId, input.userId, input.now, async (tx) => {
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
