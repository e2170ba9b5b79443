// Branches (issue 12): a copy of the owner's story up to one of its messages, as a new story of
// theirs that remembers its origin. The shown messages are copied in one statement (their chosen
// versions become the copy's originals), with the pictures they show, the memory as it stood at
// that message (the fold at or before it), the notes and the style sheet.
import { sql } from 'drizzle-orm';
import type { Db } from '../client';
import { assertWithinQuotas, countRowsInBulk, type QuotaCheck } from './quotas';
import { MAX_ID, rows } from './sql-values';

export interface StoryLinkRow {
  id: number;
  title: string | null;
  premise: string;
  createdAt: string;
}

export function createStoryBranchesRepository(db: Db) {
  return {
    /**
     * Copies the owner's story through `messageId` (a message it shows) into a new story titled
     * `title`. 'missing' when the story is not theirs, 'message' when it does not show that message.
     * Throws QuotaExceeded (keeping nothing) when the copy takes the account past `quotas`.
     */
    async branch(input: { storyId: number; userId: number; messageId: number; title: string; now: Date; quotas: QuotaCheck }): Promise<number | 'missing' | 'message'> {
      const { storyId, userId, messageId } = input;
      if (storyId > MAX_ID) return 'missing';
      const now = input.now.toISOString();
      return db.transaction(async (tx) => {
        const [source] = await rows<{ memory: string; memoryThroughId: number }>(
          tx,
          sql`select memory, memory_through_id as "memoryThroughId" from stories where id = ${storyId} and user_id = ${userId} and not importing for share`,
        );
        if (!source) return 'missing';
        if (messageId > MAX_ID) return 'message';
        const [shown] = await rows<{ id: number }>(tx, sql`select id from story_messages where id = ${messageId} and story_id = ${storyId} and state = 'shown'`);
        if (!shown) return 'message';
        await countRowsInBulk(tx);
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
          sql`insert into stories (user_id, title, premise, memory, notes, branched_from_story_id, branched_from_message_id, created_at, updated_at)
              select user_id, ${input.title}, premise, ${memory.text}, notes, id, ${messageId}, ${now}::timestamptz, ${now}::timestamptz
              from stories where id = ${storyId}
              returning id`,
        );
        // One story too many is known before anything is copied.
        await assertWithinQuotas(tx, userId, { maxStories: input.quotas.maxStories });
        // New ids are drawn in the order the rows are inserted (by old id), so the n-th new id is the n-th old one's copy.
        const [copied] = await rows<{ throughId: number | null }>(
          tx,
          sql`
          with source as (
            select id, role, content, turn, is_initial, attempts, version, created_at
            from story_messages where story_id = ${storyId} and state = 'shown' and id <= ${messageId}
          ), copied as (
            insert into story_messages (story_id, role, content, turn, is_initial, attempts, created_at)
            select ${branch.id}, role, content, turn, is_initial, attempts, created_at from source order by id
            returning id
          ), pairs as (
            -- Zipped in one pass: a join on row numbers of two CTEs (no statistics) could be planned as a nested loop.
            select * from unnest(
              (select array_agg(id order by id) from source),
              (select array_agg(version order by id) from source),
              (select array_agg(id order by id) from copied)
            ) as p(old_id, version, new_id)
          ), pictures as (
            insert into scene_images (user_id, story_id, message_id, version, status, scene, asset_hash, attempts, created_at, updated_at)
            select ${userId}, ${branch.id}, p.new_id, 1, 'ready', i.scene, i.asset_hash, 1, ${now}::timestamptz, ${now}::timestamptz
            from pairs p join scene_images i on i.message_id = p.old_id and i.version = p.version and i.status = 'ready' and i.asset_hash is not null
          ), folds as (
            insert into story_memory_folds (story_id, through_id, memory, created_at)
            select ${branch.id}, (select max(p.new_id) from pairs p where p.old_id <= f.through_id), f.memory, f.created_at
            from story_memory_folds f where f.story_id = ${storyId} and f.through_id > 0 and f.through_id <= ${memory.throughId}
            on conflict do nothing
          )
          select (select max(new_id) from pairs where old_id <= ${memory.throughId} and ${memory.throughId} > 0) as "throughId"`,
        );
        if (copied.throughId) await tx.execute(sql`update stories set memory_through_id = ${copied.throughId} where id = ${branch.id}`);
        await tx.execute(sql`
          insert into story_visuals (story_id, art_style, player, characters, seed, updated_at)
          select ${branch.id}, art_style, player, characters, seed, ${now}::timestamptz from story_visuals where story_id = ${storyId}`);
        await assertWithinQuotas(tx, userId, input.quotas);
        return branch.id;
      });
    },

    /** The story a story was branched from (while it is still the owner's) and its own branches, newest first. */
    async family(storyId: number, userId: number): Promise<{ origin: StoryLinkRow | null; branches: StoryLinkRow[] } | null> {
      if (storyId > MAX_ID) return null;
      const [story] = await rows<{ originId: number | null }>(
        db,
        sql`select branched_from_story_id as "originId" from stories where id = ${storyId} and user_id = ${userId}`,
      );
      if (!story) return null;
      const link = sql.raw(`id, title, premise, to_json(created_at) #>> '{}' as "createdAt"`);
      const [origin] = story.originId ? await rows<StoryLinkRow>(db, sql`select ${link} from stories where id = ${story.originId} and user_id = ${userId}`) : [];
      const branches = await rows<StoryLinkRow>(
        db,
        sql`select ${link} from stories where branched_from_story_id = ${storyId} and user_id = ${userId} order by created_at desc, id desc`,
      );
      return { origin: origin ?? null, branches };
    },
  };
}
export type StoryBranchesRepository = ReturnType<typeof createStoryBranchesRepository>;
