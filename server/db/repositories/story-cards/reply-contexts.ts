// The context records of a story's replies (what the narrator was sent, kept with each reply
// version by stories.saveReply): one record with the paid work its reply set off, for the context
// viewer; and, for a turn's sticky, cooldown and delay, the recent replies that kept one and the
// card lists of their records, each read as one JSON value a row.
import { sql } from 'drizzle-orm';
import type { LaterWork, NarratorContext } from '@shared/schemas/story-cards';
import type { Db } from '../../client';
import { executePrepared } from '../prepared';
import { MAX_ID, rows } from '../sql-values';

/** A reply's context record, and the cards it turned on (saved with the reply: stories.saveReply). */
export interface ReplyContext {
  keyed: number[];
  on: number[];
  record: NarratorContext;
}

/**
 * A paid call a reply set off (its fold, its picture, the picture's style sheet), as the ledger has
 * it: unpriced, its createdAt as json_build_object writes a timestamptz (ISO 8601 with the offset).
 */
export type LaterWorkRow = Omit<LaterWork, 'costUsd'>;
/** At most this many are listed with a reply (a fold, a compaction, a picture, its style sheet, pictures painted again). */
const LATER_WORK_MAX = 20;

/** One earlier reply's cards, for sticky, cooldown and delay. */
export interface CardHistoryRow {
  /** The reply and the version of it shown, whose record this is. */
  messageId: number;
  version: number;
  turn: number;
  keyed: number[];
  on: number[];
}

/**
 * The record of a reply of the owner's story: of `version`, else of the version shown. 'missing'
 * when the message is not a reply of that story (or not theirs), 'none' when no record was kept.
 */
export async function replyContext(
  db: Db,
  userId: number,
  storyId: number,
  messageId: number,
  version?: number,
): Promise<{ record: NarratorContext; laterWork: LaterWorkRow[] } | 'missing' | 'none'> {
  if (storyId > MAX_ID || messageId > MAX_ID || (version ?? 0) > MAX_ID) return 'missing';
  const [row] = await rows<{
    version: number;
    versions: number;
    record: NarratorContext | null;
    later: LaterWorkRow[];
  }>(
    db,
    // The ledger rows the reply set off, by the partial index on message_id: a handful, capped.
    sql`select m.version, m.versions, c.record,
          (select coalesce(json_agg(json_build_object('kind', u.kind, 'inputTokens', u.input_tokens,
              'cachedInputTokens', u.cached_input_tokens, 'outputTokens', u.output_tokens,
              'imageTokens', u.image_tokens, 'createdAt', u.created_at) order by u.id), '[]'::json)
           from (select * from usage_events where message_id = m.id and kind in ('summary', 'image', 'style')
                 order by id limit ${LATER_WORK_MAX}) u) as later
        from story_messages m join stories s on s.id = m.story_id
        left join narrator_contexts c on c.message_id = m.id and c.version = coalesce(${version ?? null}::int, m.version)
        where m.id = ${messageId} and m.story_id = ${storyId} and s.user_id = ${userId} and not s.importing
          and m.role = 'assistant' and m.state = 'shown'`,
  );
  if (!row || (version !== undefined && version > row.versions)) return 'missing';
  return row.record ? { record: row.record, laterWork: row.later } : 'none';
}

/**
 * The replies whose records a turn's sticky and cooldown read: the newest shown replies with a
 * record before `beforeMessageId`, newest first, as far back as `turns` turns before `turn`
 * (bounded by the look-back the cards ask for, never the story). A few numbers a row: their
 * lists come from the kept records, or recordLists.
 */
export async function historyReplies(
  db: Db,
  storyId: number,
  beforeMessageId: number,
  turn: number,
  turns: number,
): Promise<Array<{ messageId: number; version: number; turn: number }>> {
  const [found] = await executePrepared<{ replies: string }>(
    db,
    'story_card_history_replies',
    sql`select coalesce(json_agg(json_build_array(r.id, r.version, r.turn) order by r.id desc), '[]')::text as replies
        from (select m.id, m.version, m.turn from story_messages m
              where m.story_id = ${storyId} and m.state = 'shown' and m.role = 'assistant'
                and m.id < ${beforeMessageId} and m.turn >= ${turn - turns}
                and exists (select 1 from narrator_contexts c where c.message_id = m.id and c.version = m.version)
              order by m.id desc limit ${turns}) r`,
  );
  const replies = JSON.parse(found.replies) as Array<[number, number, number]>;
  return replies.map(([messageId, version, at]) => ({ messageId, version, turn: at }));
}

/** The lists of these versions of the story's replies' records, by message id (one missing when its record is gone). */
export async function recordLists(
  db: Db,
  storyId: number,
  replies: Array<{ messageId: number; version: number }>,
): Promise<Map<number, { keyed: number[]; on: number[] }>> {
  const ids = `{${replies.map((r) => r.messageId).join(',')}}`;
  const versions = `{${replies.map((r) => r.version).join(',')}}`;
  // As one JSON array a row, as the heads are: 200 rows of a thousand ids each took node-postgres's
  // array parser some 15 ms of this thread, JSON.parse a fraction of it (bench:cards' hostile story).
  const found = await executePrepared<{ row: string }>(
    db,
    'story_card_record_lists',
    sql`select json_build_array(c.message_id, c.keyed, c."on")::text as row
        from unnest(${ids}::int[], ${versions}::int[]) as r(id, version)
        join narrator_contexts c on c.message_id = r.id and c.version = r.version
        join story_messages m on m.id = c.message_id and m.story_id = ${storyId}`,
  );
  return new Map(
    found.map(({ row }) => {
      const [messageId, keyed, on] = JSON.parse(row) as [number, number[], number[]];
      return [messageId, { keyed, on }];
    }),
  );
}
