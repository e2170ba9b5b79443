// The limit on the regular-expression keys a story's cards hold between them, counted inside the
// writing transaction with the story row locked, so writes at once (an add and an edit, two tabs)
// queue on it and each counts the others' keys: none can pass the limit.
import { sql } from 'drizzle-orm';
import type { Db } from '../../client';
import { rows } from '../sql-values';

/**
 * The regular-expression keys a story's cards may hold between them: `max`, counted by `of` (what a
 * key must look like to be one is the story domain's rule, handed down).
 */
export interface RegexKeyLimit {
  max: number;
  of: (card: { keys: string[]; secondaryKeys: string[] }) => number;
}

/**
 * Inside the writing transaction, with the story row locked: whether the story's other cards (all
 * but `except`) and `adding` more would hold more regular-expression keys than the limit allows.
 * A write that adds none cannot pass it, and is not counted.
 */
export async function passesRegexKeys(
  tx: Pick<Db, 'execute'>,
  storyId: number,
  except: number,
  adding: number,
  limit: RegexKeyLimit | undefined,
): Promise<boolean> {
  if (!limit || adding === 0) return false;
  // Only cards that may hold one are read (such a key starts with '/'); `of` counts them exactly.
  const held = await rows<{ keys: string[]; secondaryKeys: string[] }>(
    tx,
    sql`select keys, secondary_keys as "secondaryKeys" from story_cards
        where story_id = ${storyId} and id <> ${except}
          and (keys::text like '%"/%' or secondary_keys::text like '%"/%')`,
  );
  return held.reduce((sum, card) => sum + limit.of(card), adding) > limit.max;
}
