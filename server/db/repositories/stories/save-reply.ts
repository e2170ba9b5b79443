// A finished reply stored in one statement: the message (or a retry's next version of it), its
// usage row, its context record and the end of the generation lease all land, or none of it does,
// so a process killed mid-turn leaves either the whole reply or no trace of it. One round trip,
// not a transaction's five: it sits between the last streamed word and the player's `done`.
import { sql } from 'drizzle-orm';
import type { LoopGuardMark, ReplyUsage } from '@shared/schemas/story';
import type { Db } from '../../client';
import { executePrepared } from '../prepared';
import type { ReplyContext } from '../story-cards';
import type { MessageRecord } from '../story-records';
import { fromJson, messageJson, type JsonMessage } from '../story-turn';
import type { UsageEvent } from '../usage';

export interface FinishedReply {
  storyId: number;
  turn: number;
  content: string;
  alternativeTo: number | null;
  usage: UsageEvent | null;
  now: Date;
  /** What the narrator was sent for this reply (the version it becomes), kept with it. */
  context?: ReplyContext | null;
  /** The loop guard's mark on this version: it replaced a looping answer, or kept one that loops. */
  loopGuard?: LoopGuardMark | null;
  /** What this version's calls cost, kept with it. */
  replyUsage?: ReplyUsage | null;
}

/**
 * Saves a finished reply with its usage row and the end of the lease. A retry of an answered
 * action (`alternativeTo`, its reply) adds the reply as that message's next version and shows
 * it: the earlier replies stay as alternatives (the first retry also writes the original).
 */
export async function saveReply(db: Db, input: FinishedReply): Promise<MessageRecord> {
  const context = input.context ?? null;
  const intArray = (ids: number[] | undefined) => `{${(ids ?? []).join(',')}}`;
  const now = input.now.toISOString();
  const usage = input.usage;
  const loopGuard = input.loopGuard ?? null;
  const replyUsage = input.replyUsage ? JSON.stringify(input.replyUsage) : null;
  const [row] = await executePrepared<{ message: JsonMessage }>(
    db,
    'story_save_reply',
    sql`
    with target as (
      select id, content, versions, created_at, loop_guard, usage from story_messages
      where ${input.alternativeTo !== null}::boolean and id = ${input.alternativeTo ?? 0} and story_id = ${input.storyId} and role = 'assistant'
    ), first_version as (
      insert into message_versions (message_id, version, kind, content, created_at, loop_guard, usage)
      select id, 1, 'original', content, created_at, loop_guard, usage from target where versions = 1
    ), new_version as (
      insert into message_versions (message_id, version, kind, content, created_at, loop_guard, usage)
      select id, versions + 1, 'alternative', ${input.content}, ${now}::timestamptz, ${loopGuard}::text, ${replyUsage}::jsonb from target
    ), alternative as (
      update story_messages m set content = ${input.content}, version = t.versions + 1, versions = t.versions + 1,
        loop_guard = ${loopGuard}::text, usage = ${replyUsage}::jsonb
      from target t where m.id = t.id
      returning m.*
    ), inserted as (
      insert into story_messages (story_id, role, content, turn, created_at, loop_guard, usage)
      select ${input.storyId}, 'assistant', ${input.content}, ${input.turn}, ${now}::timestamptz, ${loopGuard}::text, ${replyUsage}::jsonb
      where not ${input.alternativeTo !== null}::boolean
      returning *
    ), reply as (
      select * from alternative union all select * from inserted
    ), usage as (
      insert into usage_events (user_id, story_id, message_id, kind, provider, model, narrator, input_tokens, cached_input_tokens, output_tokens, image_tokens, characters, created_at)
      select ${usage?.userId ?? 0}::int, ${usage?.storyId ?? null}::int, r.id, ${usage?.kind ?? 'turn'}::text, ${usage?.provider ?? ''}::text, ${usage?.model ?? ''}::text,
        ${usage?.narrator ?? 'default'}::text,
        ${usage?.inputTokens ?? 0}::int, ${usage?.cachedInputTokens ?? 0}::int, ${usage?.outputTokens ?? 0}::int, ${usage?.imageTokens ?? 0}::int, ${usage?.characters ?? 0}::int,
        ${(usage?.createdAt ?? input.now).toISOString()}::timestamptz
      from reply r where ${usage !== null}::boolean
    ), released as (
      update stories set generating_until = null, updated_at = ${now}::timestamptz where id = ${input.storyId}
    ), context as (
      insert into narrator_contexts (message_id, version, keyed, "on", record, created_at)
      select r.id, r.version, ${intArray(context?.keyed)}::int[], ${intArray(context?.on)}::int[],
        ${JSON.stringify(context?.record ?? null)}::jsonb, ${now}::timestamptz
      from reply r where ${context !== null}::boolean
      on conflict (message_id, version) do update set keyed = excluded.keyed, "on" = excluded."on", record = excluded.record
    )
    select ${messageJson('reply')} as message from reply`,
  );
  return fromJson(row.message);
}
