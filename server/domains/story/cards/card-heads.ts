// The cards of the stories being played, kept between turns: their heads (keys and settings) and
// the contents a turn has read. At 1,000 cards, reading the heads from the embedded database took
// 8-20 ms of every turn, and the always-on cards' contents are read on every turn (bench:cards). A
// story's cards are current while its cards_version (raised by every change to its cards, read with
// the turn's lease) is the one they were read at, on every instance alike. Bounded by the heads and
// the content characters held, least recently used stories dropped first. And the cards each
// recent reply's record lists (keyed, on), by the reply and its version: what a turn's sticky and
// cooldown read back (see recentCardHistory), kept so a turn whose window holds those replies asks
// the database nothing. A version's record is written once, with the version, so what is kept is
// never stale, on any instance.
import type { Repositories } from '@server/db/repositories';
import type { CardHead } from '@server/db/repositories/story-cards';

/** Heads kept at most, across stories: about 50 stories of 1,000 cards. */
export const CARD_HEADS_KEPT = 50_000;
/** Content characters kept at most, across stories (about 64 MB as UTF-16). */
export const CARD_CONTENT_CHARS_KEPT = 32 * 1024 * 1024;
/** Card ids kept at most across the replies' records (8 to 16 MB): 200 replies of 1,000 cards on, for 10 stories. */
export const RECORD_IDS_KEPT = 2_000_000;
/** Replies' records kept at most, whatever they list (a story without cards keeps empty ones). */
export const RECORDS_KEPT = 100_000;

/** A reply version's record as kept: its cards keyed and on. */
export interface KeptRecord {
  keyed: number[];
  on: number[];
}

interface Kept {
  version: number;
  heads: CardHead[];
  contents: Map<number, string>;
  chars: number;
}

export function createCardHeads(
  repos: Pick<Repositories, 'storyCards'>,
  capacity = { heads: CARD_HEADS_KEPT, chars: CARD_CONTENT_CHARS_KEPT },
) {
  // In recency order: a Map iterates in insertion order, and a use moves the story to the end.
  const kept = new Map<number, Kept>();
  let heldHeads = 0;
  let heldChars = 0;
  /** By message id, in the order kept (the oldest dropped first): the version the record is of, and it. */
  const records = new Map<number, { version: number; record: KeptRecord }>();
  let heldIds = 0;
  const idsIn = (record: KeptRecord) => 1 + record.keyed.length + record.on.length;

  function forget(storyId: number): void {
    const entry = kept.get(storyId);
    if (!entry) return;
    kept.delete(storyId);
    heldHeads -= entry.heads.length;
    heldChars -= entry.chars;
  }

  function trim(): void {
    for (const id of kept.keys()) {
      if (heldHeads <= capacity.heads && heldChars <= capacity.chars) break;
      forget(id);
    }
  }

  /** The story's entry at `version`, made the most recent; undefined when it is not kept at that version. */
  function current(storyId: number, version: number): Kept | undefined {
    const entry = kept.get(storyId);
    if (!entry || entry.version !== version) return undefined;
    kept.delete(storyId);
    kept.set(storyId, entry);
    return entry;
  }

  return {
    /** The story's card heads at `version` (its cards_version as the turn read it). */
    async of(storyId: number, version: number): Promise<CardHead[]> {
      const entry = current(storyId, version);
      if (entry) return entry.heads;
      const heads = await repos.storyCards.heads(storyId);
      forget(storyId);
      // A story with no cards costs one entry; one larger than the whole cache is not kept.
      if (heads.length <= capacity.heads) {
        kept.set(storyId, { version, heads, contents: new Map(), chars: 0 });
        heldHeads += heads.length;
        trim();
      }
      return heads;
    },

    /** The contents of these cards of the story at `version`: those kept, and the rest read in one statement. */
    async contents(storyId: number, version: number, ids: number[]): Promise<Map<number, string>> {
      const entry = current(storyId, version);
      const found = new Map<number, string>();
      const missing: number[] = [];
      for (const id of ids) {
        const content = entry?.contents.get(id);
        if (content === undefined) missing.push(id);
        else found.set(id, content);
      }
      if (missing.length === 0) return found;
      const read = await repos.storyCards.contents(storyId, missing);
      // Kept only while the entry is still the one at this version (a change may have come meanwhile).
      const keep = entry && kept.get(storyId) === entry;
      for (const [id, content] of read) {
        found.set(id, content);
        if (keep && !entry.contents.has(id)) {
          entry.contents.set(id, content);
          entry.chars += content.length;
          heldChars += content.length;
        }
      }
      if (keep) trim();
      return found;
    },

    /** Keeps what one version of a reply's record lists. */
    rememberRecord(messageId: number, version: number, record: KeptRecord): void {
      const before = records.get(messageId);
      if (before) heldIds -= idsIn(before.record);
      records.delete(messageId);
      // A record past the whole budget is not kept: its turns ask the database.
      if (idsIn(record) > RECORD_IDS_KEPT) return;
      records.set(messageId, { version, record });
      heldIds += idsIn(record);
      for (const [id, oldest] of records) {
        if (heldIds <= RECORD_IDS_KEPT && records.size <= RECORDS_KEPT) break;
        records.delete(id);
        heldIds -= idsIn(oldest.record);
      }
    },

    /** The kept record of this version of the reply, if kept. */
    recordOf(messageId: number, version: number): KeptRecord | undefined {
      const found = records.get(messageId);
      return found?.version === version ? found.record : undefined;
    },

    stats: () => ({ stories: kept.size, heads: heldHeads, chars: heldChars, recordIds: heldIds }),
  };
}
export type CardHeads = ReturnType<typeof createCardHeads>;
