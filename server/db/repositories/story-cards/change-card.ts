// One card of a story changed from the panel: rewritten, with the story row locked as an add locks
// it so that edits and adds at once count each other's regular-expression keys, and counted against
// the owner's stored text; or removed.
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../client';
import { storyCards } from '../../schema';
import { assertWithinQuotas, type QuotaCheck } from '../quotas';
import { MAX_ID } from '../sql-values';
import type { CardRow, CardValues } from './card-types';
import { passesRegexKeys, type RegexKeyLimit } from './regex-keys';

/**
 * Rewrites a card unless the story's cards would then hold more regular-expression keys than
 * `regexKeys` allows ('tooManyRegexKeys', nothing changed); null when the story has no such card.
 * Throws QuotaExceeded (nothing changed) when it takes the owner past their stored text.
 */
export async function updateCard(
  db: Db,
  owner: { userId: number; storyId: number },
  cardId: number,
  card: CardValues,
  now: Date,
  limits: { quotas: QuotaCheck; regexKeys?: RegexKeyLimit },
): Promise<CardRow | 'tooManyRegexKeys' | null> {
  if (cardId > MAX_ID) return null;
  return db.transaction(async (tx): Promise<CardRow | 'tooManyRegexKeys' | null> => {
    // Locked as an add locks it: edits and adds at once count each other's keys.
    await tx.execute(sql`select id from stories where id = ${owner.storyId} for update`);
    const adding = limits.regexKeys?.of(card) ?? 0;
    if (await passesRegexKeys(tx, owner.storyId, cardId, adding, limits.regexKeys)) return 'tooManyRegexKeys';
    const [row] = await tx
      .update(storyCards)
      .set({ ...card, updatedAt: now })
      .where(and(eq(storyCards.storyId, owner.storyId), eq(storyCards.id, cardId)))
      .returning();
    if (row) await assertWithinQuotas(tx, owner.userId, limits.quotas);
    return row ?? null;
  });
}

export async function removeCard(db: Db, storyId: number, cardId: number): Promise<boolean> {
  if (cardId > MAX_ID) return false;
  const gone = await db
    .delete(storyCards)
    .where(and(eq(storyCards.storyId, storyId), eq(storyCards.id, cardId)))
    .returning({ id: storyCards.id });
  return gone.length > 0;
}
