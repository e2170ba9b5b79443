// The owner choosing which version of a message the story shows (the versions menu's arrows),
// under the change's lock: the chosen version's text, loop guard mark and cost become the
// message's, and the premise follows when it is the opening message.
import { sql } from 'drizzle-orm';
import type { ReplyUsage } from '@shared/schemas/story';
import type { Db } from '../../client';
import { rows } from '../sql-values';
import { changing, shownMessage, syncPremise, type ChangeResult, type VersionedMessage } from './story-change';

export interface VersionChoice {
  storyId: number;
  userId: number;
  messageId: number;
  version: number;
  now: Date;
}

/** Shows version `version` of a message; 'version' when it has no such version. */
export async function selectVersion(
  db: Db,
  input: VersionChoice,
): Promise<ChangeResult<VersionedMessage | 'message' | 'version'>> {
  return changing(db, input.storyId, input.userId, input.now, async (tx) => {
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
}
