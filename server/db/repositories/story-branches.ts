// Branches: a copy of the owner's story up to one of its messages, as a new story of
// theirs that remembers its origin. The shown messages are copied in pieces (their chosen versions
// become the copy's originals), with the pictures they show, the memory as it stood at that message
// (the fold at or before it), the author's note, the generation settings, the style sheet and the
// story cards.
import { sql } from 'drizzle-orm';
import type { Db } from '../client';
import { inPieces, removeHiddenStory } from './pieces';
import { assertWithinQuotas, type QuotaCheck } from './quotas';
import { addToTally, emptyTally, tallyRows, writeTally, type TallyRow } from './memory-statistics';
import { copyStoryCards } from './story-cards';
import { MAX_ID, rows } from './sql-values';

export interface StoryLinkRow {
  id: number;
  title: string | null;
  premise: string;
  createdAt: string;
}

/** A message of the source as the branch copies it: the version it showed when the branch began, and that text's size. */
interface SourceHead {
  id: number;
  version: number;
  bytes: number;
}

/** The source story went (deleted) while its copy was being written. */
class SourceGone extends Error {}

/** The copy's id of the last copied message at or before `oldId` (old ids ascending), or null. */
function copyAtOrBefore(oldIds: number[], newIds: number[], oldId: number): number | null {
  let low = 0;
  let high = oldIds.length - 1;
  let found = -1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (oldIds[middle] <= oldId) {
      found = middle;
      low = middle + 1;
    } else high = middle - 1;
  }
  return found === -1 ? null : newIds[found];
}

export function createStoryBranchesRepository(db: Db) {
  /**
   * The branch's first step, in one short transaction holding the source: checks it, makes the
   * (hidden) copy's story row, and reads which version of which message to copy.
   */
  async function begin(input: {
    storyId: number;
    userId: number;
    messageId: number;
    title: string;
    now: string;
    quotas: QuotaCheck;
  }) {
    const { storyId, userId, messageId, now } = input;
    return db.transaction(async (tx) => {
      const [source] = await rows<{ memory: string; memoryThroughId: number; saturated: boolean }>(
        tx,
        sql`select memory, memory_through_id as "memoryThroughId",
              coalesce((select saturated from memory_totals where story_id = ${storyId}), false) as saturated
            from stories where id = ${storyId} and user_id = ${userId} and not importing for share`,
      );
      if (!source) return 'missing' as const;
      if (messageId > MAX_ID) return 'message' as const;
      const [shown] = await rows<{ id: number }>(
        tx,
        sql`select id from story_messages where id = ${messageId} and story_id = ${storyId} and state = 'shown'`,
      );
      if (!shown) return 'message' as const;
      // The memory as it stood at the message: today's when it reaches no further, else the fold before.
      let memory = { text: source.memory, throughId: source.memoryThroughId };
      if (source.memoryThroughId > messageId) {
        const [fold] = await rows<{ memory: string; throughId: number }>(
          tx,
          sql`select memory, through_id as "throughId" from story_memory_folds where story_id = ${storyId} and through_id <= ${messageId} order by through_id desc limit 1`,
        );
        memory = fold ? { text: fold.memory, throughId: fold.throughId } : { text: '', throughId: 0 };
      }
      const [branch] = await rows<{ id: number }>(
        tx,
        sql`insert into stories (user_id, title, premise, memory, notes, reply_length, temperature, branched_from_story_id, branched_from_message_id, importing, created_at, updated_at)
            select user_id, ${input.title}, premise, ${memory.text}, notes, reply_length, temperature, id, ${messageId}, true, ${now}::timestamptz, ${now}::timestamptz
            from stories where id = ${storyId}
            returning id`,
      );
      // One story too many is known before anything is copied.
      await assertWithinQuotas(tx, userId, { maxStories: input.quotas.maxStories });
      const heads = await rows<SourceHead>(
        tx,
        sql`select id, version, octet_length(content) as bytes from story_messages where story_id = ${storyId} and state = 'shown' and id <= ${messageId} order by id`,
      );
      return { branchId: branch.id, memoryThroughId: memory.throughId, heads, saturated: source.saturated };
    });
  }

  /**
   * Copies the messages in pieces (the versions they showed become the copy's originals) with the
   * pictures they show, their memory-bank passages and their story-bible facts, then the passages'
   * term statistics. A version's text never changes, so a message changed since the first step is
   * still copied as it was then; one that is gone means the source story went.
   */
  async function copyMessages(
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

  return {
    /**
     * Copies the owner's story through `messageId` (a message it shows) into a new story titled
     * `title`: its shown messages with the versions they show and their pictures, the memory as it
     * stood at that message (the fold at or before it), the notes and the style sheet. Written in
     * pieces like an import, hidden until the last one shows it. 'missing' when the story is not
     * theirs (or went meanwhile), 'message' when it does not show that message. Throws
     * QuotaExceeded (keeping nothing) when the copy takes the account past `quotas`.
     */
    async branch(input: {
      storyId: number;
      userId: number;
      messageId: number;
      title: string;
      now: Date;
      quotas: QuotaCheck;
    }): Promise<number | 'missing' | 'message'> {
      const { storyId, userId } = input;
      if (storyId > MAX_ID) return 'missing';
      const now = input.now.toISOString();
      const begun = await begin({ ...input, now });
      if (typeof begun === 'string') return begun;
      const { branchId, memoryThroughId, heads, saturated } = begun;
      try {
        const newIds = await copyMessages({ storyId, userId, now, saturated }, branchId, heads);
        const oldIds = heads.map((h) => h.id);
        await db.transaction(async (tx) => {
          const folds = await rows<{ throughId: number }>(
            tx,
            sql`select through_id as "throughId" from story_memory_folds where story_id = ${storyId} and through_id > 0 and through_id <= ${memoryThroughId}`,
          );
          const pairs = folds.flatMap((f) => {
            const copy = copyAtOrBefore(oldIds, newIds, f.throughId);
            return copy === null ? [] : [[f.throughId, copy]];
          });
          await tx.execute(
            sql`insert into story_memory_folds (story_id, through_id, memory, created_at)
                select ${branchId}, p.new_id, f.memory, f.created_at
                from unnest(${sql.param(pairs.map((p) => p[0]))}::int[], ${sql.param(pairs.map((p) => p[1]))}::int[]) as p(old_id, new_id)
                join story_memory_folds f on f.story_id = ${storyId} and f.through_id = p.old_id
                on conflict do nothing`,
          );
          const throughId = memoryThroughId > 0 ? copyAtOrBefore(oldIds, newIds, memoryThroughId) : null;
          await tx.execute(
            sql`update stories set memory_through_id = ${throughId ?? 0}, importing = false where id = ${branchId}`,
          );
          await tx.execute(sql`
            insert into story_visuals (story_id, art_style, player, characters, seed, updated_at)
            select ${branchId}, art_style, player, characters, seed, ${now}::timestamptz from story_visuals where story_id = ${storyId}`);
          await copyStoryCards(tx, storyId, branchId, now);
          await assertWithinQuotas(tx, userId, input.quotas);
        });
        return branchId;
      } catch (error) {
        await removeHiddenStory(db, branchId);
        if (error instanceof SourceGone) return 'missing';
        throw error;
      }
    },

    /** The story a story was branched from (while it is still the owner's) and its own branches, newest first. */
    async family(
      storyId: number,
      userId: number,
    ): Promise<{ origin: StoryLinkRow | null; branches: StoryLinkRow[] } | null> {
      if (storyId > MAX_ID) return null;
      const [story] = await rows<{ originId: number | null }>(
        db,
        sql`select branched_from_story_id as "originId" from stories where id = ${storyId} and user_id = ${userId}`,
      );
      if (!story) return null;
      const link = sql.raw(`id, title, premise, to_json(created_at) #>> '{}' as "createdAt"`);
      const [origin] = story.originId
        ? await rows<StoryLinkRow>(
            db,
            sql`select ${link} from stories where id = ${story.originId} and user_id = ${userId}`,
          )
        : [];
      const branches = await rows<StoryLinkRow>(
        db,
        sql`select ${link} from stories where branched_from_story_id = ${storyId} and user_id = ${userId} order by created_at desc, id desc`,
      );
      return { origin: origin ?? null, branches };
    },
  };
}
export type StoryBranchesRepository = ReturnType<typeof createStoryBranchesRepository>;
