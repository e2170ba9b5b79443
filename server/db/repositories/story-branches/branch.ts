// A branch of the owner's story: a copy up to one of its messages, as a new story of theirs that
// remembers its origin. Three steps: a short transaction holding the source checks it, makes the
// hidden copy's row with the memory as it stood at that message and reads which versions to copy;
// the messages go in pieces (branch-messages.ts); a last transaction adds the memory's folds, the
// style sheet and the story cards, counts the quotas and shows the copy. A failure at any step
// deletes the copy, so a branch lands whole or not at all.
import { sql } from 'drizzle-orm';
import type { Db } from '../../client';
import { removeHiddenStory } from '../pieces';
import { assertWithinQuotas, type QuotaCheck } from '../quotas';
import { MAX_ID, rows } from '../sql-values';
import { copyStoryCards } from '../story-cards';
import { copyMessages, SourceGone, type SourceHead } from './branch-messages';

export interface BranchRequest {
  storyId: number;
  userId: number;
  messageId: number;
  title: string;
  now: Date;
  quotas: QuotaCheck;
}

/** What the first step made and read: the hidden copy, where its memory reaches, and what to copy. */
interface Begun {
  branchId: number;
  memoryThroughId: number;
  heads: SourceHead[];
  saturated: boolean;
}

/**
 * Copies the owner's story through `messageId` (a message it shows) into a new story titled
 * `title`: its shown messages with the versions they show and their pictures, the memory as it
 * stood at that message (the fold at or before it), the notes and the style sheet. Written in
 * pieces like an import, hidden until the last one shows it. 'missing' when the story is not
 * theirs (or went meanwhile), 'message' when it does not show that message. Throws
 * QuotaExceeded (keeping nothing) when the copy takes the account past `quotas`.
 */
export async function branchStory(db: Db, input: BranchRequest): Promise<number | 'missing' | 'message'> {
  const { storyId, userId } = input;
  if (storyId > MAX_ID) return 'missing';
  const now = input.now.toISOString();
  const begun = await begin(db, { ...input, now });
  if (typeof begun === 'string') return begun;
  const { branchId, heads, saturated } = begun;
  try {
    const newIds = await copyMessages(db, { storyId, userId, now, saturated }, branchId, heads);
    await finish(db, { ...input, now }, begun, newIds);
    return branchId;
  } catch (error) {
    await removeHiddenStory(db, branchId);
    if (error instanceof SourceGone) return 'missing';
    throw error;
  }
}

/**
 * The branch's first step, in one short transaction holding the source: checks it, makes the
 * (hidden) copy's story row, and reads which version of which message to copy.
 */
async function begin(
  db: Db,
  input: Omit<BranchRequest, 'now'> & { now: string },
): Promise<Begun | 'missing' | 'message'> {
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
      sql`insert into stories (user_id, title, premise, memory, notes, reply_length, temperature, narrator, branched_from_story_id, branched_from_message_id, importing, created_at, updated_at)
          select user_id, ${input.title}, premise, ${memory.text}, notes, reply_length, temperature, narrator, id, ${messageId}, true, ${now}::timestamptz, ${now}::timestamptz
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
 * The branch's last step, in one transaction: the source's folds up to the copy's memory (each at
 * its copied message), where the copy's memory reaches, the style sheet and the story cards; then
 * the quotas are counted and the copy is shown.
 */
async function finish(
  db: Db,
  input: Omit<BranchRequest, 'now'> & { now: string },
  begun: Begun,
  newIds: number[],
): Promise<void> {
  const { storyId, userId, now } = input;
  const { branchId, memoryThroughId, heads } = begun;
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
}

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
