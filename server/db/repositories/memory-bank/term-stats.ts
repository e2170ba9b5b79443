// A story's term statistics for BM25: the changes the triggers queued (memory_deltas) added into
// memory_terms and memory_totals by the bank's runs, and the statistics of a query's terms read
// with the changes not yet added in, so a ranking is right the moment a story changes.
import { sql } from 'drizzle-orm';
import type { Db } from '../../client';
import { addedToStatistics } from '../memory-statistics';
import { executePrepared } from '../prepared';

/** A story's term statistics for a query: its live passages, their total length, and how many hold each term. */
export interface TermStats {
  passages: number;
  length: number;
  /** Passages holding each of the terms asked for (absent: none, unless `saturated`). */
  holding: Record<string, number>;
  /**
   * The story holds more terms than its statistics keep: a term absent from `holding` may still be
   * held, by passages whose words came after the first MAX_STORY_TERMS (rare ones, mostly).
   */
  saturated: boolean;
}

export function termStatistics(db: Db) {
  return {
    /**
     * Adds the story's changes to its term statistics (rows the triggers wrote to memory_deltas) into
     * memory_terms and memory_totals, in one statement (addedToStatistics): the rows are taken by
     * deleting them, so two instances never add one twice. A story that is gone only loses its rows.
     * Answers how many rows were added in.
     */
    async applyDeltas(storyId: number): Promise<number> {
      const [row] = await executePrepared<{ taken: number }>(
        db,
        'memory_apply_deltas',
        sql`
        with taken as (
          delete from memory_deltas where story_id = ${storyId} returning term, holding, length
        ), summed as (
          select term, sum(holding)::int as holding, sum(length)::bigint as length from taken
          where exists (select 1 from stories where id = ${storyId}) group by term
        ), counted as (
          select term, holding from summed where term <> '' and holding <> 0
        ), counted_totals as (
          select coalesce(sum(holding), 0)::int as passages, coalesce(sum(length), 0)::bigint as length
          from summed where term = ''
        ), ${addedToStatistics(storyId)}
        select count(*)::int as taken from taken`,
      );
      return row.taken;
    },

    /**
     * The story's term statistics for `terms`: what memory_terms and memory_totals hold plus the
     * changes not yet added in (memory_deltas), so they are right the moment a change is made. A few
     * index reads, whatever the story's size.
     */
    async termStats(storyId: number, terms: string[]): Promise<TermStats> {
      const [row] = await executePrepared<{ stats: TermStats }>(
        db,
        'memory_term_stats',
        sql`with pending as (
              select term, sum(holding)::int as holding, sum(length)::bigint as length from memory_deltas
              where story_id = ${storyId} and (term = '' or term = any(${sql.param(terms)}::text[])) group by term
            ), held as (
              select coalesce(t.term, p.term) as term, coalesce(t.holding, 0) + coalesce(p.holding, 0) as holding
              from (select term, holding from memory_terms where story_id = ${storyId} and term = any(${sql.param(terms)}::text[])) t
              full join (select term, holding from pending where term <> '') p on p.term = t.term
            )
            select json_build_object(
              'passages', coalesce((select passages from memory_totals where story_id = ${storyId}), 0)
                + coalesce((select holding from pending where term = ''), 0),
              'length', coalesce((select length from memory_totals where story_id = ${storyId}), 0)
                + coalesce((select length from pending where term = ''), 0),
              'holding', (select coalesce(json_object_agg(term, holding), '{}'::json) from held where holding > 0),
              'saturated', coalesce((select saturated from memory_totals where story_id = ${storyId}), false)
            ) as stats`,
      );
      return row.stats;
    },
  };
}
