// The account quotas' counters as tests check them: what user_stats counts (kept by the triggers of
// migrations 0013 and 0018) beside the same figures summed from the stored rows, which the app never does.
import type { Database } from '../db/client';

export interface QuotaCounts {
  storedBytes: number;
  shares: number;
  stories: number;
}

/** What user_stats says of the player, and what their stored rows add up to. Null `counted` when they have no row. */
export async function quotaCounters(
  database: Database,
  userId: number,
): Promise<{ counted: QuotaCounts | null; actual: QuotaCounts }> {
  const [counted] = (
    await database.executeSql('select stored_bytes, shares, stories from user_stats where user_id = $1', [userId])
  ).rows as Array<{
    stored_bytes: string | number;
    shares: number;
    stories: number;
  }>;
  const [actual] = (
    await database.executeSql(
      `select
        (select coalesce(sum(octet_length(premise) + octet_length(memory) + octet_length(notes)), 0) from stories where user_id = $1)
        + (select coalesce(sum(octet_length(m.content)), 0) from story_messages m join stories s on s.id = m.story_id where s.user_id = $1)
        + (select coalesce(sum(octet_length(v.content)), 0) from message_versions v join story_messages m on m.id = v.message_id join stories s on s.id = m.story_id where s.user_id = $1)
        + (select coalesce(sum(octet_length(f.memory)), 0) from story_memory_folds f join stories s on s.id = f.story_id where s.user_id = $1)
        + (select coalesce(sum(octet_length(c.name) + octet_length(c.keys::text) + octet_length(c.secondary_keys::text) + octet_length(c.content)), 0)
            from story_cards c join stories s on s.id = c.story_id where s.user_id = $1)
        + (select coalesce(sum(octet_length(title)), 0) from shared_stories where user_id = $1)
        + (select coalesce(sum(octet_length(messages)), 0) from shared_story_pieces where user_id = $1) as stored_bytes,
        (select count(*) from shared_stories where user_id = $1)::int as shares,
        (select count(*) from stories where user_id = $1)::int as stories`,
      [userId],
    )
  ).rows as Array<{ stored_bytes: string | number; shares: number; stories: number }>;
  const counts = (row: { stored_bytes: string | number; shares: number; stories: number }) => ({
    storedBytes: Number(row.stored_bytes),
    shares: row.shares,
    stories: row.stories,
  });
  return { counted: counted ? counts(counted) : null, actual: counts(actual) };
}
