// Reads of a story's cards (the caller checked the owner): the panel's list and one card, and a
// turn's two steps, the heads (keys and settings, no content) to decide which cards come up, then
// the contents of those that can fit, so a story of 1,000 long cards is never read whole for a turn.
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../client';
import { storyCards } from '../../schema';
import { executePrepared } from '../prepared';
import { MAX_ID } from '../sql-values';
import type { CardHead, CardRow } from './card-types';

/** A card's head as one row's JSON array, in this order (the story_card_heads statement builds it). */
type HeadArray = [
  id: number,
  name: string,
  keys: string[],
  secondaryKeys: string[],
  secondaryLogic: CardHead['secondaryLogic'],
  tokens: number,
  alwaysOn: boolean,
  enabled: boolean,
  priority: number,
  caseSensitive: boolean,
  wholeWords: boolean,
  scanDepth: number,
  recursive: boolean,
  sticky: number,
  cooldown: number,
  delay: number,
];

function headOf(json: string): CardHead {
  const h = JSON.parse(json) as HeadArray;
  return {
    id: h[0],
    name: h[1],
    keys: h[2],
    secondaryKeys: h[3],
    secondaryLogic: h[4],
    tokens: h[5],
    alwaysOn: h[6],
    enabled: h[7],
    priority: h[8],
    caseSensitive: h[9],
    wholeWords: h[10],
    scanDepth: h[11],
    recursive: h[12],
    sticky: h[13],
    cooldown: h[14],
    delay: h[15],
  };
}

/** Every card of the story, oldest first (the caller checked the owner). */
export function listCards(db: Db, storyId: number): Promise<CardRow[]> {
  return db.select().from(storyCards).where(eq(storyCards.storyId, storyId)).orderBy(asc(storyCards.id));
}

/**
 * Every card's head, for a turn, oldest first. Each row comes as one JSON array rather than 16
 * columns: at 1,000 cards on PGlite the columns took about 10 ms of this thread to parse and map
 * (node-postgres and Drizzle, per field), the JSON about 3 (docs/benchmarks.md, bench:cards).
 */
export async function cardHeads(db: Db, storyId: number): Promise<CardHead[]> {
  const found = await executePrepared<{ head: string }>(
    db,
    'story_card_heads',
    sql`select json_build_array(id, name, keys, secondary_keys, secondary_logic, tokens, always_on, enabled, priority,
          case_sensitive, whole_words, scan_depth, recursive, sticky, cooldown, delay)::text as head
        from story_cards where story_id = ${storyId} order by id`,
  );
  return found.map((row) => headOf(row.head));
}

/** The contents of these cards of the story. */
export async function cardContents(db: Db, storyId: number, ids: number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const found = await db
    .select({ id: storyCards.id, content: storyCards.content })
    .from(storyCards)
    .where(and(eq(storyCards.storyId, storyId), inArray(storyCards.id, ids)));
  return new Map(found.map((r) => [r.id, r.content]));
}

export async function getCard(db: Db, storyId: number, cardId: number): Promise<CardRow | null> {
  if (cardId > MAX_ID) return null;
  const [row] = await db
    .select()
    .from(storyCards)
    .where(and(eq(storyCards.storyId, storyId), eq(storyCards.id, cardId)));
  return row ?? null;
}
