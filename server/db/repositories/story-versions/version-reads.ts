// Reads of a story's message versions, outside any change: a message's versions a page at a time
// (the versions menu), several messages' versions at once (an export), and one shown message of
// the owner's story, read without a lock.
import { sql } from 'drizzle-orm';
import type { MessageVersion } from '@shared/schemas/story-versions';
import type { Db } from '../../client';
import { MAX_ID, PIECE_BYTES, rows } from '../sql-values';
import { messageColumns, type VersionedMessage } from './story-change';

/**
 * Every version of a message, oldest first, a page at a time of at most PIECE_BYTES of text: a
 * message may keep 200 versions of 20,000 characters, which read at once held the embedded
 * database's one session and then the event loop 20-50 ms each. A message never changed has
 * only its original. Versions are only ever added, so pages by version number add up.
 */
export async function* versionPages(db: Db, message: VersionedMessage): AsyncGenerator<MessageVersion[]> {
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
}

/** The versions of several messages (a story's export), each oldest first. */
export async function versionsOfMessages(db: Db, messageIds: number[]): Promise<Map<number, MessageVersion[]>> {
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
}

/** A shown message of the owner's story, for reads (no lock). */
export async function findShown(
  db: Db,
  storyId: number,
  userId: number,
  messageId: number,
): Promise<VersionedMessage | null> {
  if (storyId > MAX_ID || messageId > MAX_ID) return null;
  const [row] = await rows<VersionedMessage>(
    db,
    sql`select ${messageColumns} from story_messages m
        where m.id = ${messageId} and m.story_id = ${storyId} and m.state = 'shown'
          and exists (select 1 from stories s where s.id = m.story_id and s.user_id = ${userId})`,
  );
  return row ?? null;
}
