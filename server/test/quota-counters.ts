// The account quotas' counters as tests check them: what user_stats counts (kept by the triggers of
// migrations 0013, 0018 and 0030) beside the same figures summed from the stored rows, which the app
// never does. Each row counts the bytes of what it holds: text by octet_length, arrays and jsonb by
// octet_length of their text form, bytea by its length; ids, numbers, flags and times are not counted.
import type { Database } from '../db/client';

export interface QuotaCounts {
  storedBytes: number;
  shares: number;
  stories: number;
}

/** The bytes of each kind of row a player's stories hold, summed from the rows (`$1` is the player). */
export const STORED_BYTES_BY_KIND = {
  stories: `select coalesce(sum(octet_length(premise) + octet_length(memory) + octet_length(notes)), 0) from stories where user_id = $1`,
  messages: `select coalesce(sum(octet_length(m.content)), 0) from story_messages m join stories s on s.id = m.story_id where s.user_id = $1`,
  versions: `select coalesce(sum(octet_length(v.content)), 0) from message_versions v join story_messages m on m.id = v.message_id join stories s on s.id = m.story_id where s.user_id = $1`,
  folds: `select coalesce(sum(octet_length(f.memory)), 0) from story_memory_folds f join stories s on s.id = f.story_id where s.user_id = $1`,
  cards: `select coalesce(sum(octet_length(c.name) + octet_length(c.keys::text) + octet_length(c.secondary_keys::text) + octet_length(c.content)), 0)
    from story_cards c join stories s on s.id = c.story_id where s.user_id = $1`,
  contexts: `select coalesce(sum(octet_length(c.keyed::text) + octet_length(c."on"::text) + octet_length(c.record::text)), 0)
    from narrator_contexts c join story_messages m on m.id = c.message_id join stories s on s.id = m.story_id where s.user_id = $1`,
  facts: `select coalesce(sum(octet_length(f.entity) + octet_length(f.attribute) + octet_length(f.value)), 0)
    from story_facts f join stories s on s.id = f.story_id where s.user_id = $1`,
  passages: `select coalesce(sum(octet_length(p.text) + octet_length(p.terms::text) + octet_length(p.counts::text)), 0)
    from memory_passages p join stories s on s.id = p.story_id where s.user_id = $1`,
  terms: `select coalesce(sum(octet_length(t.term)), 0) from memory_terms t join stories s on s.id = t.story_id where s.user_id = $1`,
  vectors: `select coalesce(sum(octet_length(v.vector)), 0) from memory_vectors v join stories s on s.id = v.story_id where s.user_id = $1`,
  shares: `select coalesce(sum(octet_length(title)), 0) from shared_stories where user_id = $1`,
  sharePieces: `select coalesce(sum(octet_length(messages)), 0) from shared_story_pieces where user_id = $1`,
} as const;

export type StoredKind = keyof typeof STORED_BYTES_BY_KIND;

const KINDS = Object.keys(STORED_BYTES_BY_KIND) as StoredKind[];
const kindColumns = KINDS.map((kind) => `(${STORED_BYTES_BY_KIND[kind]}) as "${kind}"`).join(', ');

/**
 * One statement, so one snapshot: what user_stats says of the player (null columns when they have no
 * row) beside their stored bytes of each kind summed from the rows, and their stories and live
 * shares. A background write (the memory bank's) lands wholly before or after it.
 */
async function recount(database: Database, userId: number) {
  const [row] = (
    await database.executeSql(
      `select ${kindColumns},
        (select count(*) from shared_stories where user_id = $1)::int as "shareCount",
        (select count(*) from stories where user_id = $1)::int as "storyCount",
        q.stored_bytes as "countedBytes", q.shares as "countedShares", q.stories as "countedStories"
      from (select 1) one left join user_stats q on q.user_id = $1`,
      [userId],
    )
  ).rows as Array<
    Record<StoredKind, string | number> & {
      shareCount: number;
      storyCount: number;
      countedBytes: string | number | null;
      countedShares: number | null;
      countedStories: number | null;
    }
  >;
  const bytes = Object.fromEntries(KINDS.map((kind) => [kind, Number(row[kind])])) as Record<StoredKind, number>;
  const counted: QuotaCounts | null =
    row.countedBytes === null
      ? null
      : { storedBytes: Number(row.countedBytes), shares: row.countedShares ?? 0, stories: row.countedStories ?? 0 };
  return { bytes, shares: row.shareCount, stories: row.storyCount, counted };
}

/** The player's stored bytes of each kind, summed from the rows. */
export async function storedBytesByKind(database: Database, userId: number): Promise<Record<StoredKind, number>> {
  return (await recount(database, userId)).bytes;
}

/** What user_stats says of the player, and what their stored rows add up to. Null `counted` when they have no row. */
export async function quotaCounters(
  database: Database,
  userId: number,
): Promise<{ counted: QuotaCounts | null; actual: QuotaCounts }> {
  const { bytes, shares, stories, counted } = await recount(database, userId);
  return { counted, actual: { storedBytes: Object.values(bytes).reduce((sum, n) => sum + n, 0), shares, stories } };
}
