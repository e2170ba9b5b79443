// What a turn's recall reads from the bank: the live passages before the verbatim window that hold
// one of the query's anchor terms, with the counts of its terms (ranked by the caller, ranking.ts),
// then the texts of the passages chosen, read joined with their messages so a passage whose message
// changed a moment ago is never sent, whatever its live flag says.
import { sql } from 'drizzle-orm';
import type { Db } from '../../client';
import { executePrepared } from '../prepared';
import { rows } from '../sql-values';

/** [passage id, message id, length, the query terms it holds, their counts]. */
export type PassageHitRow = [number, number, number, string[], number[]];

export interface PassageText {
  id: number;
  messageId: number;
  turn: number;
  role: 'user' | 'assistant';
  text: string;
}

export function retrieval(db: Db) {
  return {
    /**
     * The story's newest live passages before message `beforeId` holding one of `anchors` (at most
     * `limit`), with the counts of the `terms` they hold.
     */
    async hits(
      storyId: number,
      beforeId: number,
      terms: string[],
      anchors: string[],
      limit: number,
    ): Promise<PassageHitRow[]> {
      const [row] = await executePrepared<{ hits: PassageHitRow[] }>(
        db,
        'memory_hits',
        sql`select coalesce(json_agg(json_build_array(h.id, h.message_id, h.length, q.terms, q.counts)), '[]'::json) as hits
            from (select p.id, p.message_id, p.length, p.terms, p.counts from memory_passages p
                  where p.story_id = ${storyId} and p.live and p.message_id < ${beforeId}
                    and p.terms && ${sql.param(anchors)}::text[]
                  order by p.message_id desc, p.id limit ${limit}) h,
              lateral (select array_agg(u.term) as terms, array_agg(u.n) as counts
                from unnest(h.terms, h.counts) as u(term, n) where u.term = any(${sql.param(terms)}::text[])) q`,
      );
      return row.hits;
    },

    /** The passages `ids`, if their messages still show them. */
    async passageTexts(storyId: number, ids: number[]): Promise<PassageText[]> {
      if (ids.length === 0) return [];
      return rows<PassageText>(
        db,
        sql`select p.id, p.message_id as "messageId", p.turn, p.role, p.text
            from memory_passages p join story_messages m on m.id = p.message_id and m.version = p.version
            where p.id = any(${sql.param(ids)}::int[]) and p.story_id = ${storyId} and m.state = 'shown'`,
      );
    },
  };
}
