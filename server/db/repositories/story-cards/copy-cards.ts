// A branch's cards: the story's cards copied to its branch as they are now, in one statement inside
// the branch's last transaction (so the copy shows with its cards or not at all).
import { sql } from 'drizzle-orm';
import type { Db } from '../../client';

/** A branch starts with its story's cards, copied as they are now (inside the branch's last transaction). */
export async function copyStoryCards(runner: Pick<Db, 'execute'>, fromStoryId: number, toStoryId: number, now: string) {
  await runner.execute(sql`
    insert into story_cards (story_id, name, keys, secondary_keys, secondary_logic, content, tokens, always_on, enabled,
      priority, case_sensitive, whole_words, scan_depth, recursive, sticky, cooldown, delay, created_at, updated_at)
    select ${toStoryId}, name, keys, secondary_keys, secondary_logic, content, tokens, always_on, enabled,
      priority, case_sensitive, whole_words, scan_depth, recursive, sticky, cooldown, delay, ${now}::timestamptz, ${now}::timestamptz
    from story_cards where story_id = ${fromStoryId} order by id`);
}
