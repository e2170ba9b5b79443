// The statement that opens a story turn (it sits before the provider call, on the time-to-first-word
// path), on its own so that a test can ask the database how it runs: a turn must read the story's
// newest message and its window, never the whole story, however long the story grows. The window
// is read capped (unfoldedJson): the newest unfolded messages, as many as the prompt could hold.
import { sql, type SQL } from 'drizzle-orm';
import { MESSAGE_MAX_VERSIONS } from '@shared/schemas/quotas';
import type { MessageRecord } from './story-records';

/** A message as json_build_object gives it back: the time is a string. */
export type JsonMessage = Omit<MessageRecord, 'createdAt'> & { createdAt: string };
export const fromJson = (m: JsonMessage): MessageRecord => ({ ...m, createdAt: new Date(m.createdAt) });

/** A message row of `alias` as the JSON fromJson reads, for statements that return several kinds of row. */
export const messageJson = (alias: string) =>
  sql.raw(
    `json_build_object('id', ${alias}.id, 'role', ${alias}.role, 'content', ${alias}.content, 'turn', ${alias}.turn, 'isInitial', ${alias}.is_initial, 'attempts', ${alias}.attempts, 'version', ${alias}.version, 'versions', ${alias}.versions, 'createdAt', ${alias}.created_at)`,
  );

/** The most a capped read of a story's unfolded messages brings back. */
export interface WindowLimits {
  rows: number;
  /** Bytes of text (octet_length, read from the row's header without its text); the first message always comes. */
  bytes: number;
}

/** A capped read: its messages oldest first, and whether more unfolded messages lie beyond the cap. */
export interface UnfoldedRead {
  messages: MessageRecord[];
  more: boolean;
}

export interface JsonUnfoldedRead {
  messages: JsonMessage[];
  more: boolean;
}

export const fromJsonRead = (read: JsonUnfoldedRead): UnfoldedRead => ({
  messages: read.messages.map(fromJson),
  more: read.more,
});

/**
 * The messages `where` selects (an `m` of story_messages), walked by id from the newest or the
 * oldest through the (story_id, id) index and stopped after `limits.rows` + 1 rows, with a running
 * sum of their sizes so that only the first `limits.bytes` of text leave the database: a story of
 * 8,000 long messages sends the window, not the story. One JSON value {messages, more}, messages
 * oldest first; `more` says the cap left some out.
 */
export function unfoldedJson(where: SQL, limits: WindowLimits, from: 'newest' | 'oldest'): SQL {
  const order = sql.raw(from === 'newest' ? 'desc' : 'asc');
  const inside = sql`w.n <= ${limits.rows} and w.bytes_before < ${limits.bytes}`;
  return sql`(select json_build_object(
      'messages', coalesce(json_agg(${messageJson('w')} order by w.id) filter (where ${inside}), '[]'::json),
      'more', coalesce(bool_or(not (${inside})), false))
    from (
      select m.id, m.role, m.content, m.turn, m.is_initial, m.attempts, m.version, m.versions, m.created_at,
        row_number() over walk as n, sum(octet_length(m.content)) over walk - octet_length(m.content) as bytes_before
      from story_messages m where ${where}
      window walk as (order by m.id ${order} rows between unbounded preceding and current row)
      order by m.id ${order} limit ${limits.rows + 1}
    ) w)`;
}

/** A start's or a retry's window: the newest unfolded messages before the action, as a continue reads them. */
export function recentUnfoldedQuery(storyId: number, afterId: number, beforeId: number, limits: WindowLimits): SQL {
  const where = sql`m.story_id = ${storyId} and m.id > ${afterId} and m.id < ${beforeId} and m.state = 'shown' and not m.is_initial`;
  return sql`select ${unfoldedJson(where, limits, 'newest')} as window`;
}

/** What a fold summarises next: the oldest unfolded messages through `throughId`. */
export function oldestUnfoldedQuery(storyId: number, afterId: number, throughId: number, limits: WindowLimits): SQL {
  const where = sql`m.story_id = ${storyId} and m.id > ${afterId} and m.id <= ${throughId} and m.state = 'shown' and not m.is_initial`;
  return sql`select ${unfoldedJson(where, limits, 'oldest')} as window`;
}

export interface LeaseAndAppendInput {
  storyId: number;
  userId: number;
  content: string;
  now: Date;
  until: Date;
  /** How much of the unfolded window to read (the newest messages). */
  window: WindowLimits;
  /** USER_MAX_STORED_MB in bytes: the lease is refused when the owner's stored text and the action would pass it. */
  maxStoredBytes: number;
}

/** Leases the owner's story, appends (or replaces) the action, reads the window (capped) and the preferences: see stories.leaseAndAppend. */
export function leaseAndAppendQuery(input: LeaseAndAppendInput): SQL {
  return sql`
    with leased as (
      update stories set generating_until = ${input.until.toISOString()}::timestamptz
      where id = ${input.storyId} and user_id = ${input.userId} and not importing
        and (generating_until is null or generating_until < ${input.now.toISOString()}::timestamptz)
        -- The storage quota: one primary-key read of the owner's counter, kept by triggers (migration 0013).
        and coalesce((select q.stored_bytes from user_stats q where q.user_id = ${input.userId}), 0) <= ${input.maxStoredBytes - Buffer.byteLength(input.content)}::bigint
      returning id, user_id, title, premise, memory, memory_through_id, notes, cards_version, reply_length, temperature, narrator
    ), last as (
      select m.id, m.role, m.is_initial, m.turn, m.content, m.versions, m.created_at
      -- The story's id as a parameter of the scan, not a join with "leased": joined, the planner
      -- (PGlite never analyses this table) read every message of the story and sorted them
      -- for the newest, a cost that grew with the story; this way it is one backward index step.
      from story_messages m where m.story_id = (select id from leased) and m.state = 'shown' order by m.id desc limit 1
    ), unanswered as (
      select * from last where role = 'user' and not is_initial
    ), first_version as (
      insert into message_versions (message_id, version, kind, content, created_at)
      select id, 1, 'original', content, created_at from unanswered where versions = 1
    ), new_version as (
      -- A message holds at most MESSAGE_MAX_VERSIONS versions: at the cap the new action takes the
      -- place of the last one (itself an action never answered), so the turn still goes ahead.
      insert into message_versions (message_id, version, kind, content, created_at)
      select id, least(versions + 1, ${MESSAGE_MAX_VERSIONS}::int), 'replacement', ${input.content}, ${input.now.toISOString()}::timestamptz from unanswered
      on conflict (message_id, version) do update set kind = excluded.kind, content = excluded.content, created_at = excluded.created_at
    ), redo_ended as (
      -- A new action ends redo: what was set aside after the story's last shown message (the replaced
      -- action, or the reply the action follows) stays set aside, out of redo's reach. Kept in redo's
      -- reach, a later undo or erase of this action would have let redo bring back those older turns
      -- instead of the part it set aside (redo takes the smallest cut after the story's end).
      update story_messages set undone_from = null
      where story_id = (select id from leased) and state = 'undone' and undone_from is not null
        and id > coalesce((select id from last), 0)
    ), replaced as (
      update story_messages m set content = ${input.content}, version = least(u.versions + 1, ${MESSAGE_MAX_VERSIONS}::int), versions = least(u.versions + 1, ${MESSAGE_MAX_VERSIONS}::int), attempts = m.attempts + 1
      from unanswered u where m.id = u.id
      returning m.*
    ), appended as (
      insert into story_messages (story_id, role, content, turn, attempts, created_at)
      select leased.id, 'user', ${input.content}, coalesce((select turn from last), 0) + 1, 1, ${input.now.toISOString()}::timestamptz
      from leased where not exists (select 1 from unanswered)
      returning *
    ), action as (
      select * from replaced union all select * from appended
    )
    select
      json_build_object('id', leased.id, 'userId', leased.user_id, 'title', leased.title, 'premise', leased.premise,
        'memory', leased.memory, 'memoryThroughId', leased.memory_through_id, 'notes', leased.notes,
        'cardsVersion', leased.cards_version, 'replyLength', leased.reply_length, 'temperature', leased.temperature,
        'narrator', leased.narrator) as story,
      ${messageJson('action')} as action,
      ${unfoldedJson(
        sql`m.story_id = leased.id and m.id > leased.memory_through_id and m.state = 'shown' and not m.is_initial and m.id <> action.id`,
        input.window,
        'newest',
      )} as window,
      (select json_build_object('contentRating', p.content_rating, 'narrativeStyle', p.narrative_style,
          'languageStyle', p.language_style, 'imageGeneration', p.image_generation)
         from user_preferences p where p.user_id = leased.user_id) as preferences
    from leased, action`;
}
