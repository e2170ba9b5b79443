// The memory bank's rows: the passages of each shown message (written after the turn, off its
// critical path), the story's term statistics, and what retrieval ranks. A passage counts only while
// its message shows the version it was cut from: its `live` flag, kept by a trigger on story_messages
// (migration 0019), serves the statistics and the hits; the texts recalled are read joined with the
// messages, so a passage whose message changed a moment ago is never sent whatever the flag says.
// The statistics keep a bounded number of terms a story (memory-statistics.ts).
// The statistics keep at most MAX_STORY_TERMS terms a story, so that what a story costs to index,
// branch and delete follows its size, not how many different words it holds.
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../client';
import { addedToStatistics, TERMS_PER_STATEMENT } from './memory-statistics';
import { executePrepared } from './prepared';
import { rows } from './sql-values';

/** A shown message whose shown version has no passages yet. */
export interface UnindexedMessage {
  id: number;
  version: number;
  turn: number;
  role: 'user' | 'assistant';
  content: string;
}

export interface PassageValues {
  part: number;
  text: string;
  terms: string[];
  counts: number[];
  length: number;
}

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

/** [passage id, message id, length, the query terms it holds, their counts]. */
export type PassageHitRow = [number, number, number, string[], number[]];

export interface PassageText {
  id: number;
  messageId: number;
  turn: number;
  role: 'user' | 'assistant';
  text: string;
}

const textArray = (values: string[]) => sql.param(values);

/**
 * The tail of a statement whose CTE `inserted` (terms, length, live) wrote new passages of
 * `storyId`: their terms and totals added to its statistics (addedToStatistics).
 */
function countedIn(storyId: number): SQL {
  return sql`counted as (
      select u.term, count(*)::int as holding from inserted i, unnest(i.terms) as u(term)
      where i.live and i.length > 0 group by u.term
    ), counted_totals as (
      select count(*)::int as passages, coalesce(sum(length), 0)::bigint as length from inserted where live and length > 0
    ), ${addedToStatistics(storyId)}
    select 1`;
}

/**
 * `batch` in runs of whole messages of at most TERMS_PER_STATEMENT terms (counted once a passage);
 * a message of more is a run of its own.
 */
function inTermRuns<Item>(batch: Item[], termsOf: (item: Item) => number): Item[][] {
  const runs: Item[][] = [];
  let run: Item[] = [];
  let terms = 0;
  for (const item of batch) {
    const n = termsOf(item);
    if (run.length > 0 && terms + n > TERMS_PER_STATEMENT) {
      runs.push(run);
      run = [];
      terms = 0;
    }
    run.push(item);
    terms += n;
  }
  if (run.length > 0) runs.push(run);
  return runs;
}

/** The statement of memoryBank.unindexed (exported for the test that holds its reads to what it finds). */
export function unindexedQuery(storyId: number, limit: number): SQL {
  return sql`select m.id, m.version, m.turn, m.role, m.content from story_messages m
    where m.story_id = ${storyId} and m.state = 'shown' and not m.is_initial and m.indexed_version is distinct from m.version
    order by m.id desc limit ${limit}`;
}

export function createMemoryBankRepository(db: Db) {
  /** savePassages for one run of messages, in one statement. */
  async function savePassageRun(
    storyId: number,
    batch: Array<{ message: UnindexedMessage; passages: PassageValues[] }>,
  ): Promise<void> {
    if (batch.length === 0) return;
    const records = batch.flatMap(({ message, passages }) =>
      (passages.length > 0 ? passages : [{ part: 0, text: '', terms: [], counts: [], length: 0 }]).map((p) => ({
        ...p,
        messageId: message.id,
        version: message.version,
      })),
    );
    const versions = batch.map(({ message }) => ({ messageId: message.id, version: message.version }));
    await db.execute(
      sql`with locked as (
            -- The messages still at the version read, locked for this statement. Never waited for:
            -- one an undo, erase or deletion holds is skipped (the next catch-up finds it, if it is
            -- still shown), so this statement waits on no message and cannot close a deadlock with
            -- a change that holds its messages while it waits on others (PostgreSQL logged them).
            -- The story comes first (an uncorrelated condition, checked once before any message),
            -- as the changes take it first. A change that comes after waits for this statement,
            -- and the trigger that follows it then sees these passages: live is never left stale.
            select m.id, m.version, m.turn, m.role, m.state from story_messages m
            join jsonb_to_recordset(${JSON.stringify(versions)}::jsonb) as r("messageId" int, "version" int)
              on m.id = r."messageId" and m.version = r."version"
            where m.story_id = ${storyId} and exists (select 1 from stories where id = ${storyId} for key share)
            for no key update of m skip locked
          ), inserted as (
            insert into memory_passages (story_id, message_id, version, part, turn, role, text, terms, counts, length, live)
            select ${storyId}, m.id, p."version", p.part, m.turn, m.role, p.text,
              array(select jsonb_array_elements_text(p.terms)), array(select jsonb_array_elements_text(p.counts)::int), p.length,
              m.state = 'shown'
            from jsonb_to_recordset(${JSON.stringify(records)}::jsonb)
              as p("messageId" int, "version" int, part int, text text, terms jsonb, counts jsonb, length int)
            join locked m on m.id = p."messageId"
            on conflict (message_id, version, part) do nothing
            returning terms, length, live
          ), marked as (
            update story_messages m set indexed_version = l.version from locked l where m.id = l.id
          ), ${countedIn(storyId)}`,
    );
  }

  return {
    /**
     * The story's newest shown messages (at most `limit`; the premise aside, it is always sent) whose
     * shown version is not indexed: read through story_messages_unindexed_idx, whose condition this
     * repeats word for word, so the work is the messages found, not the story.
     */
    async unindexed(storyId: number, limit: number): Promise<UnindexedMessage[]> {
      return executePrepared<UnindexedMessage>(db, 'memory_unindexed', unindexedQuery(storyId, limit));
    },

    /**
     * The passages of these messages, each for the version it shows; the passages of a message's
     * other versions stay (not live), so choosing one of them again needs no new indexing. A message
     * with no terms gets one empty passage. Each message is marked indexed at the version read
     * (indexed_version); a message changed since it was read, or held by a change meanwhile, gets
     * neither: the next catch-up reads it again. A statement per run of messages of at most
     * TERMS_PER_STATEMENT terms.
     */
    async savePassages(
      storyId: number,
      batch: Array<{ message: UnindexedMessage; passages: PassageValues[] }>,
    ): Promise<void> {
      for (const run of inTermRuns(batch, (item) => item.passages.reduce((sum, p) => sum + p.terms.length, 0)))
        await savePassageRun(storyId, run);
    },

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
              where story_id = ${storyId} and (term = '' or term = any(${textArray(terms)}::text[])) group by term
            ), held as (
              select coalesce(t.term, p.term) as term, coalesce(t.holding, 0) + coalesce(p.holding, 0) as holding
              from (select term, holding from memory_terms where story_id = ${storyId} and term = any(${textArray(terms)}::text[])) t
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
                    and p.terms && ${textArray(anchors)}::text[]
                  order by p.message_id desc, p.id limit ${limit}) h,
              lateral (select array_agg(u.term) as terms, array_agg(u.n) as counts
                from unnest(h.terms, h.counts) as u(term, n) where u.term = any(${textArray(terms)}::text[])) q`,
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
export type MemoryBankRepository = ReturnType<typeof createMemoryBankRepository>;
