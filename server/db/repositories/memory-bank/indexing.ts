// Indexing a story's messages into the memory bank, off the turn's critical path: the shown
// messages whose shown version has no passages yet, and their passages written with the term
// statistics they add, in statements of a bounded number of terms. A message changed, or held by a
// change, while it was read is left for the next catch-up rather than waited for.
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../client';
import { addedToStatistics, TERMS_PER_STATEMENT } from '../memory-statistics';
import { executePrepared } from '../prepared';

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

type PassageBatch = Array<{ message: UnindexedMessage; passages: PassageValues[] }>;

/** The statement of memoryBank.unindexed (exported for the test that holds its reads to what it finds). */
export function unindexedQuery(storyId: number, limit: number): SQL {
  return sql`select m.id, m.version, m.turn, m.role, m.content from story_messages m
    where m.story_id = ${storyId} and m.state = 'shown' and not m.is_initial and m.indexed_version is distinct from m.version
    order by m.id desc limit ${limit}`;
}

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

/** savePassages for one run of messages, in one statement. */
async function savePassageRun(db: Db, storyId: number, batch: PassageBatch): Promise<void> {
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

export function indexing(db: Db) {
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
    async savePassages(storyId: number, batch: PassageBatch): Promise<void> {
      for (const run of inTermRuns(batch, (item) => item.passages.reduce((sum, p) => sum + p.terms.length, 0)))
        await savePassageRun(db, storyId, run);
    },
  };
}
