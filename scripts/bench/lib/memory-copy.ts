// The memory bank of a template story copied into grown stories (players.ts copyStory), so that
// each copy recalls as the template would: its live passages (db/schema/memory.ts), each on the
// copy's message at the same place in the story (version 1, as the copy's messages are, same part),
// the term statistics counted from those passages by the statement that writes them (as the app's
// own writers and a branch's copy do: the triggers write deltas only for live flips and deletions),
// the passages' vectors, and the story bible's facts. Then a check that a copy holds what the
// template does, for the benchmark to print before it measures anything.

/** Raw SQL on a stopped app's database (processes.ts withStoreSql). */
export type Query = (text: string, values?: unknown[]) => Promise<unknown[]>;

/** Stories per statement: 1536-dimension vectors are 1.5 KB each, and a statement over 200 stories would hold hundreds of MB. */
const STORIES_PER_STATEMENT = 10;

/** The template's messages and each target's, numbered in story order: the k-th of one is the k-th of the other. */
const placed = (tpl: number, ids: string) => `tpl_messages as (
    select id, row_number() over (order by id) as k from story_messages where story_id = ${tpl}
  ), copies as (
    select story_id, id, row_number() over (partition by story_id order by id) as k
    from story_messages where story_id = any(${ids})
  )`;

/**
 * Copies the template's memory bank into the target stories, whose messages must already be the
 * template's copied in order (and whose own memory rows are cleared here first).
 */
export async function copyMemoryBank(query: Query, templateId: number, targetIds: number[]): Promise<void> {
  const tpl = Math.trunc(templateId);
  for (let start = 0; start < targetIds.length; start += STORIES_PER_STATEMENT) {
    const ids = `ARRAY[${targetIds
      .slice(start, start + STORIES_PER_STATEMENT)
      .map((id) => Math.trunc(id))
      .join(',')}]::int[]`;
    // Deleting the targets' old messages wrote deltas for any live passage they had; all of it goes.
    await query(`DELETE FROM memory_passages WHERE story_id = ANY(${ids})`);
    for (const table of ['memory_deltas', 'memory_terms', 'memory_totals', 'story_facts'])
      await query(`DELETE FROM ${table} WHERE story_id = ANY(${ids})`);
    // Live passages only: the template's passages of versions no longer shown would never be live in a copy.
    await query(`WITH ${placed(tpl, ids)}, inserted AS (
        INSERT INTO memory_passages (story_id, message_id, version, part, turn, role, text, terms, counts, length, live)
        SELECT c.story_id, c.id, 1, p.part, p.turn, p.role, p.text, p.terms, p.counts, p.length, true
        FROM memory_passages p JOIN tpl_messages t ON t.id = p.message_id JOIN copies c ON c.k = t.k
        WHERE p.story_id = ${tpl} AND p.live
        ORDER BY c.story_id, c.id, p.part
        RETURNING story_id, terms, length, live
      ), counted_terms AS (
        INSERT INTO memory_terms AS mt (story_id, term, holding)
        SELECT i.story_id, u.term, count(*)::int FROM inserted i, unnest(i.terms) AS u(term)
        WHERE i.live AND i.length > 0 GROUP BY i.story_id, u.term ORDER BY i.story_id, u.term
        ON CONFLICT (story_id, term) DO UPDATE SET holding = mt.holding + excluded.holding
      )
      INSERT INTO memory_totals AS mt (story_id, passages, length)
      SELECT story_id, count(*)::int, sum(length)::bigint FROM inserted WHERE live AND length > 0 GROUP BY story_id
      ON CONFLICT (story_id) DO UPDATE SET passages = mt.passages + excluded.passages, length = mt.length + excluded.length`);
    // The terms each copy keeps, and whether the template left one out (memory_totals).
    await query(`UPDATE memory_totals mt SET terms = (SELECT count(*) FROM memory_terms t WHERE t.story_id = mt.story_id),
        saturated = coalesce((SELECT saturated FROM memory_totals WHERE story_id = ${tpl}), false)
      WHERE mt.story_id = ANY(${ids})`);
    // In passage order, so the vector cache's seq order is the template's.
    await query(`WITH ${placed(tpl, ids)}
      INSERT INTO memory_vectors (passage_id, story_id, model, vector)
      SELECT n.id, n.story_id, v.model, v.vector
      FROM memory_passages b JOIN memory_vectors v ON v.passage_id = b.id
      JOIN tpl_messages t ON t.id = b.message_id JOIN copies c ON c.k = t.k
      JOIN memory_passages n ON n.message_id = c.id AND n.version = 1 AND n.part = b.part
      WHERE b.story_id = ${tpl} AND b.live
      ORDER BY n.story_id, n.id`);
    await query(`WITH ${placed(tpl, ids)}
      INSERT INTO story_facts (story_id, message_id, turn, entity, attribute, value, pinned, created_at)
      SELECT c.story_id, c.id, f.turn, f.entity, f.attribute, f.value, f.pinned, f.created_at
      FROM story_facts f JOIN tpl_messages t ON t.id = f.message_id JOIN copies c ON c.k = t.k
      WHERE f.story_id = ${tpl} ORDER BY c.story_id, f.id`);
  }
}

/** What a story's memory bank holds, as recall reads it. */
export interface MemoryShape {
  /** Live passages, and those with terms (the ones counted and embedded). */
  passages: number;
  withTerms: number;
  /** Vectors of live passages, and their bytes as stored. */
  vectors: number;
  vectorBytes: number;
  /** The term statistics with the pending deltas added in (as memoryBank.termStats reads them). */
  countedPassages: number;
  countedLength: number;
  terms: number;
  /** Sum over terms of the passages holding each: a checksum of memory_terms. */
  holdings: number;
  facts: number;
}

export async function memoryShape(query: Query, storyId: number): Promise<MemoryShape> {
  const id = Math.trunc(storyId);
  const [row] = (await query(`WITH pending AS (
      SELECT term, sum(holding)::int AS holding, sum(length)::bigint AS length FROM memory_deltas WHERE story_id = ${id} GROUP BY term
    ), held AS (
      SELECT coalesce(t.term, p.term) AS term, coalesce(t.holding, 0) + coalesce(p.holding, 0) AS holding
      FROM (SELECT term, holding FROM memory_terms WHERE story_id = ${id}) t
      FULL JOIN (SELECT term, holding FROM pending WHERE term <> '') p ON p.term = t.term
    )
    SELECT
      (SELECT count(*) FROM memory_passages WHERE story_id = ${id} AND live)::int AS passages,
      (SELECT count(*) FROM memory_passages WHERE story_id = ${id} AND live AND length > 0)::int AS "withTerms",
      (SELECT count(*) FROM memory_vectors v JOIN memory_passages p ON p.id = v.passage_id
        WHERE v.story_id = ${id} AND p.live)::int AS vectors,
      (SELECT coalesce(sum(octet_length(v.vector)), 0) FROM memory_vectors v JOIN memory_passages p ON p.id = v.passage_id
        WHERE v.story_id = ${id} AND p.live)::int AS "vectorBytes",
      (coalesce((SELECT passages FROM memory_totals WHERE story_id = ${id}), 0)
        + coalesce((SELECT holding FROM pending WHERE term = ''), 0))::int AS "countedPassages",
      (coalesce((SELECT length FROM memory_totals WHERE story_id = ${id}), 0)
        + coalesce((SELECT length FROM pending WHERE term = ''), 0))::int AS "countedLength",
      (SELECT count(*) FROM held WHERE holding > 0)::int AS terms,
      (SELECT coalesce(sum(holding), 0) FROM held WHERE holding > 0)::int AS holdings,
      (SELECT count(*) FROM story_facts WHERE story_id = ${id})::int AS facts`)) as MemoryShape[];
  return row;
}

/** The fields in which a copy's memory differs from the template's (none: an empty list). */
export function memoryDifferences(template: MemoryShape, copy: MemoryShape): string[] {
  return (Object.keys(template) as Array<keyof MemoryShape>)
    .filter((key) => template[key] !== copy[key])
    .map((key) => `${key} ${copy[key]} (template ${template[key]})`);
}

/** One line for the log: `212 passages (198 with terms, 198 vectors), 61 terms, 0 facts`. */
export const describeMemory = (m: MemoryShape) =>
  `${m.passages} passages (${m.withTerms} with terms, ${m.vectors} vectors), ${m.terms} terms, ${m.facts} facts`;
