// A branch's heavy part: the source's messages copied into the (hidden) copy in pieces, the
// versions they showed becoming the copy's originals, with what hangs off each version (its
// picture, its memory-bank passages and their vectors, its story-bible facts) and, once all are
// in, the passages' term statistics. A piece weighs each message by the three times its text is
// written, so no piece holds the embedded database's one session for long.
import { sql } from 'drizzle-orm';
import type { Db } from '../../client';
import { addToTally, emptyTally, tallyRows, writeTally, type TallyRow } from '../memory-statistics';
import { inPieces } from '../pieces';
import { rows } from '../sql-values';

/** A message of the source as the branch copies it: the version it showed when the branch began, and that text's size. */
export interface SourceHead {
  id: number;
  version: number;
  bytes: number;
}

/** The source story went (deleted) while its copy was being written. */
export class SourceGone extends Error {}

/**
 * Copies the messages in pieces (the versions they showed become the copy's originals) with the
 * pictures they show, their memory-bank passages and their story-bible facts, then the passages'
 * term statistics. A version's text never changes, so a message changed since the first step is
 * still copied as it was then; one that is gone means the source story went (SourceGone).
 * Answers the copies' ids, in the heads' order.
 */
export async function copyMessages(
  db: Db,
  input: { storyId: number; userId: number; now: string; saturated: boolean },
  branchId: number,
  heads: SourceHead[],
): Promise<number[]> {
  const newIds: number[] = [];
  const tally = emptyTally();
  await inPieces(
    db,
    heads,
    // A message's text is written three times over: the message, its passages' text, their terms.
    (head) => head.bytes * 3,
    async (tx, piece) => {
      const oldIds = sql.param(piece.map((h) => h.id));
      const versions = sql.param(piece.map((h) => h.version));
      const copied = await rows<{ id: number }>(
        tx,
        sql`insert into story_messages (story_id, role, content, turn, is_initial, attempts, created_at, loop_guard, usage)
          select ${branchId}, m.role, coalesce(v.content, m.content), m.turn, m.is_initial, m.attempts, m.created_at,
            case when v.message_id is null then m.loop_guard else v.loop_guard end,
            case when v.message_id is null then m.usage else v.usage end
          from unnest(${oldIds}::int[], ${versions}::int[]) with ordinality as h(id, version, n)
          join story_messages m on m.id = h.id and m.story_id = ${input.storyId}
          left join message_versions v on v.message_id = h.id and v.version = h.version
          order by h.n
          returning id`,
      );
      if (copied.length !== piece.length) throw new SourceGone();
      // Ids are drawn in the order the rows are inserted (by n); sorted to be sure.
      const ids = copied.map((r) => r.id).sort((a, b) => a - b);
      await tx.execute(
        sql`insert into scene_images (user_id, story_id, message_id, version, status, scene, asset_hash, attempts, created_at, updated_at)
          select ${input.userId}, ${branchId}, p.new_id, 1, 'ready', i.scene, i.asset_hash, 1, ${input.now}::timestamptz, ${input.now}::timestamptz
          from unnest(${oldIds}::int[], ${versions}::int[], ${sql.param(ids)}::int[]) as p(old_id, version, new_id)
          join scene_images i on i.message_id = p.old_id and i.version = p.version and i.status = 'ready' and i.asset_hash is not null`,
      );
      // The memory bank's passages of the versions copied, so the branch recalls what its source did;
      // the terms its source keeps are tallied here and written once the copy is done (writeTally).
      addToTally(
        tally,
        await rows<TallyRow>(
          tx,
          sql`with inserted as (
            insert into memory_passages (story_id, message_id, version, part, turn, role, text, terms, counts, length, live)
            select ${branchId}, p.new_id, 1, b.part, b.turn, b.role, b.text, b.terms, b.counts, b.length, true
            from unnest(${oldIds}::int[], ${versions}::int[], ${sql.param(ids)}::int[]) as p(old_id, version, new_id)
            join memory_passages b on b.message_id = p.old_id and b.version = p.version
            returning terms, length, live
          ) ${tallyRows(input.storyId, input.saturated)}`,
        ),
      );
      // The copies of indexed messages are indexed too: the branch's catch-up skips them.
      await tx.execute(
        sql`update story_messages m set indexed_version = 1
            from unnest(${oldIds}::int[], ${versions}::int[], ${sql.param(ids)}::int[]) as p(old_id, version, new_id)
            where m.id = p.new_id and exists (select 1 from memory_passages b where b.message_id = p.old_id and b.version = p.version)`,
      );
      // Their vectors too, so the branch's recall needs no paid call to embed them again.
      await tx.execute(
        sql`insert into memory_vectors (passage_id, story_id, model, vector)
            select n.id, ${branchId}, v.model, v.vector
            from unnest(${oldIds}::int[], ${versions}::int[], ${sql.param(ids)}::int[]) as p(old_id, version, new_id)
            join memory_passages b on b.message_id = p.old_id and b.version = p.version
            join memory_vectors v on v.passage_id = b.id
            join memory_passages n on n.message_id = p.new_id and n.version = 1 and n.part = b.part
            order by n.id`,
      );
      // The story bible's facts of the messages copied, as they stood there.
      await tx.execute(
        sql`insert into story_facts (story_id, message_id, turn, entity, attribute, value, pinned, created_at)
            select ${branchId}, p.new_id, f.turn, f.entity, f.attribute, f.value, f.pinned, f.created_at
            from unnest(${oldIds}::int[], ${sql.param(ids)}::int[]) as p(old_id, new_id)
            join story_facts f on f.message_id = p.old_id order by f.id`,
      );
      newIds.push(...ids);
    },
  );
  // Its term statistics, counted as a branch's indexing would have (at most MAX_STORY_TERMS terms).
  await writeTally(db, branchId, tally);
  return newIds;
}
