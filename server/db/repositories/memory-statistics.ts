// The memory bank's term statistics (memory_terms, memory_totals): the cap on the terms a story
// keeps, the CTEs that add a change to a story's statistics under it (indexing, the triggers'
// changes), and the tally a new story's copied passages are counted into (a branch). What a story
// costs to index, copy and delete follows its size, not how many different words it holds.
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../client';
import { countRowsInBulk } from './quotas';

/**
 * Terms a story's statistics keep at most (its memory_terms rows). A file or an edit can fill a
 * story with words no other passage holds (an 800-message file of random words holds 120,000), and
 * each term kept is a row that indexing, a branch and an erase write: a branch wrote 120,000 and
 * took 3 s of PGlite's one session (bench:branch). Ordinary prose holds far fewer stems: some
 * thousands in a story's first hundred thousand words (English vocabulary grows about as the
 * square root of the text), so its statistics stay whole for hundreds of turns. Past the cap the
 * terms met first stay exact, every common one among them, and those met later are not kept:
 * retrieval takes them as rare (recall.ts), as the words a long story first uses late mostly are.
 * At 8,192 a branch of the random file writes 8,192 rows (about 0.2 s of PGlite's CPU here).
 */
export const MAX_STORY_TERMS = 8_192;
/**
 * Terms one indexing statement counts at most (a passage's distinct terms, summed over a run of
 * messages), so that a batch of messages of many words is written in several short statements:
 * the embedded database's one session is never held long by a story of many words.
 */
export const TERMS_PER_STATEMENT = 2_000;
/**
 * Term rows a branch writes a statement, inserted into memory_terms, which holds a row for each term
 * of every story: bench:abuse's 40 branches of random words in a row, each adding 8,192 rows, kept a
 * bystander's p99 at 474 ms (max 747) at 2,000 rows a statement and 64 ms (max 245) at 500.
 */
export const TALLY_ROWS_PER_STATEMENT = 500;

/**
 * CTEs that add `counted` (term, holding: passages gained or lost) and `counted_totals` (one row:
 * passages, length) to the story's statistics. Terms it keeps take the change; a new term gets a
 * row, the most held first, while the story has room and has never left one out; one that does not
 * is left out and the story is saturated from then on (so a term without a row is never one the
 * story simply lacks while it holds some). Terms are written in order (see applyDeltas).
 */
export function addedToStatistics(storyId: number): SQL {
  return sql`story_totals as (
      select terms, saturated from memory_totals where story_id = ${storyId}
    ), known as (
      select c.term, c.holding, m.term is not null as kept
      from counted c left join memory_terms m on m.story_id = ${storyId} and m.term = c.term
    ), fresh as (
      select term, holding from known
      where not kept and holding > 0 and not coalesce((select saturated from story_totals), false)
      order by holding desc, term
      limit greatest(${MAX_STORY_TERMS} - coalesce((select terms from story_totals), 0), 0)
    ), terms_written as (
      insert into memory_terms as t (story_id, term, holding)
      select ${storyId}, w.term, w.holding
      from (select term, holding from known where kept and holding <> 0 union all select term, holding from fresh) w
      order by w.term
      on conflict (story_id, term) do update set holding = t.holding + excluded.holding
    ), totals_written as (
      insert into memory_totals as t (story_id, passages, length, terms, saturated)
      select ${storyId}, p.passages, p.length, (select count(*) from fresh)::int,
        (select count(*) from known where not kept and holding > 0) > (select count(*) from fresh)
      from counted_totals p
      where p.passages <> 0 or p.length <> 0 or exists (select 1 from known where not kept and holding > 0)
      on conflict (story_id) do update set passages = t.passages + excluded.passages, length = t.length + excluded.length,
        terms = t.terms + excluded.terms, saturated = t.saturated or excluded.saturated
    )`;
}

/** A branch's term statistics, counted as its passages are copied, before any is written. */
export interface StatisticsTally {
  /** Passages holding each term kept: at most MAX_STORY_TERMS. */
  holding: Map<string, number>;
  passages: number;
  length: number;
  /** A term was left out: one its source does not keep, or one past the cap. */
  saturated: boolean;
}

export const emptyTally = (): StatisticsTally => ({ holding: new Map(), passages: 0, length: 0, saturated: false });

/**
 * The tail of a statement whose CTE `inserted` (terms, length, live) copied passages of the story
 * `sourceId` into a branch: each term the source's statistics keep with the live passages holding
 * it, and one row with the term '' for the totals (holding: passages; left: whether those passages
 * hold a term the source does not keep). A source that is not saturated keeps every term its
 * passages hold; a saturated one is read for the terms it keeps (or has a change pending for). So a
 * branch keeps the terms its source keeps, counted over its own passages, and the work is the
 * passages', not their words'.
 */
export function tallyRows(sourceId: number, sourceSaturated: boolean): SQL {
  const occurring = sql`occurring as (
      select u.term from inserted i, unnest(i.terms) as u(term) where i.live and i.length > 0
    )`;
  const totals = (left: SQL) => sql`select '', count(*)::int, coalesce(sum(length), 0)::bigint, ${left}
    from inserted where live and length > 0`;
  if (!sourceSaturated)
    return sql`, ${occurring}
      select term, count(*)::int as holding, 0::bigint as length, false as "left" from occurring group by term
      union all ${totals(sql`false`)}`;
  // Counted, not an anti-join: the planner cannot know these CTEs' sizes, and nested one loop in the
  // other (a piece of 10,000 term occurrences against 300 terms kept took 2 s).
  return sql`, kept as (
      select term from memory_terms where story_id = ${sourceId}
      union select term from memory_deltas where story_id = ${sourceId} and term <> ''
    ), ${occurring}, matched as (
      select o.term, count(*)::int as holding from occurring o join kept k on k.term = o.term group by o.term
    )
    select term, holding, 0::bigint as length, false as "left" from matched
    union all ${totals(sql`(select count(distinct term) from occurring) > (select count(*) from matched)`)}`;
}

export interface TallyRow {
  term: string;
  holding: number;
  length: number | string;
  left: boolean;
}

/** Adds one statement's tallyRows: a term kept takes its count, a new one a place while there is room (the most held first). */
export function addToTally(tally: StatisticsTally, counted: TallyRow[]): void {
  const fresh: TallyRow[] = [];
  for (const row of counted) {
    if (row.term === '') {
      tally.passages += row.holding;
      tally.length += Number(row.length);
      tally.saturated ||= row.left;
    } else if (tally.holding.has(row.term)) tally.holding.set(row.term, tally.holding.get(row.term)! + row.holding);
    else fresh.push(row);
  }
  const room = MAX_STORY_TERMS - tally.holding.size;
  if (fresh.length > room) {
    tally.saturated = true;
    fresh.sort((a, b) => b.holding - a.holding || (a.term < b.term ? -1 : 1));
  }
  for (const row of fresh.slice(0, Math.max(room, 0))) tally.holding.set(row.term, row.holding);
}

/**
 * Writes the tally as the statistics of `storyId`, a story no one else writes yet (hidden while it
 * is copied): its terms, TALLY_ROWS_PER_STATEMENT to a transaction (rows counted for the quotas once a
 * statement, as a branch's pieces are), then its totals.
 */
export async function writeTally(db: Db, storyId: number, tally: StatisticsTally): Promise<void> {
  const terms = [...tally.holding.keys()].sort();
  for (let start = 0; start < terms.length; start += TALLY_ROWS_PER_STATEMENT) {
    const run = terms.slice(start, start + TALLY_ROWS_PER_STATEMENT);
    const holding = run.map((term) => tally.holding.get(term)!);
    await db.transaction(async (tx) => {
      await countRowsInBulk(tx);
      await tx.execute(
        sql`insert into memory_terms (story_id, term, holding)
            select ${storyId}, u.term, u.holding from unnest(${sql.param(run)}::text[], ${sql.param(holding)}::int[]) as u(term, holding)`,
      );
    });
  }
  if (tally.passages === 0 && terms.length === 0) return;
  await db.execute(
    sql`insert into memory_totals (story_id, passages, length, terms, saturated)
        values (${storyId}, ${tally.passages}, ${tally.length}, ${terms.length}, ${tally.saturated})`,
  );
}
