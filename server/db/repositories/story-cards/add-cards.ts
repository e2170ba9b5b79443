// Cards added to a story (the panel's new card, a lorebook's import): written in pieces, each its
// own short transaction with the story row locked, so a file of a thousand long cards never holds
// the embedded database's one session; the story's limits (its cards, the regular-expression keys
// between them, the owner's stored text) are counted in each piece, and a refusal or a failure
// takes back the pieces already written, so an add lands whole or not at all.
import { sql } from 'drizzle-orm';
import type { Db } from '../../client';
import { storyCards } from '../../schema';
import { inPieces, ROWS_PER_PIECE } from '../pieces';
import { assertWithinQuotas, type QuotaCheck } from '../quotas';
import { rows } from '../sql-values';
import type { CardRow, CardsRefusal, CardValues } from './card-types';
import { passesRegexKeys, type RegexKeyLimit } from './regex-keys';

/** A piece's refusal, thrown out of its transaction (which rolls back) to the add that answers it. */
class Refused extends Error {
  constructor(readonly refusal: CardsRefusal) {
    super(refusal);
  }
}

/** A card's text, as a piece of an add is measured. */
const cardBytes = (card: CardValues) => card.name.length + card.content.length;

/**
 * Adds cards unless the story would then hold more than `maxCards` of them or more
 * regular-expression keys than `regexKeys` allows (the refusal, nothing added; 'storyGone' when
 * the story went meanwhile). Throws QuotaExceeded (nothing added) past the owner's stored text.
 * Written in pieces (pieces.ts), each its own short transaction with the story row locked: a
 * file of a thousand long cards in one transaction held the embedded database's one session
 * for 300-500 ms, every other player's query waiting. The first piece checks the whole add, so
 * a file past a limit is refused before anything is written; each later one checks again what
 * it adds (another write may have come between), and a refusal or failure takes back the
 * pieces already written. So the add lands whole or not at all; only a process dying half-way
 * leaves the cards written so far. Returns the new rows in the given order.
 */
export async function addCards(
  db: Db,
  owner: { userId: number; storyId: number },
  cards: CardValues[],
  now: Date,
  limits: { maxCards: number; quotas: QuotaCheck; regexKeys?: RegexKeyLimit },
): Promise<CardRow[] | CardsRefusal> {
  const { storyId } = owner;
  const { regexKeys } = limits;
  const regexKeysIn = (list: CardValues[]) => (regexKeys ? list.reduce((sum, card) => sum + regexKeys.of(card), 0) : 0);
  const written: CardRow[] = [];
  try {
    await inPieces(db, cards, cardBytes, async (tx, piece) => {
      const [story] = await rows<{ id: number }>(tx, sql`select id from stories where id = ${storyId} for update`);
      if (!story) throw new Refused('storyGone');
      const checked = written.length === 0 ? cards : piece;
      const [{ count }] = await rows<{ count: number }>(
        tx,
        sql`select count(*)::int as count from story_cards where story_id = ${storyId}`,
      );
      if (count + checked.length > limits.maxCards) throw new Refused('tooManyCards');
      if (await passesRegexKeys(tx, storyId, 0, regexKeysIn(checked), regexKeys)) throw new Refused('tooManyRegexKeys');
      const inserted = await tx
        .insert(storyCards)
        .values(piece.map((card) => ({ ...card, storyId, createdAt: now, updatedAt: now })))
        .returning();
      await assertWithinQuotas(tx, owner.userId, limits.quotas);
      written.push(...inserted);
    });
  } catch (error) {
    await removeCards(
      db,
      storyId,
      written.map((row) => row.id),
    );
    if (error instanceof Refused) return error.refusal;
    throw error;
  }
  return written.sort((a, b) => a.id - b.id);
}

/** Takes back the cards an add wrote before it was refused or failed, a piece at a time. */
async function removeCards(db: Db, storyId: number, ids: number[]): Promise<void> {
  for (let start = 0; start < ids.length; start += ROWS_PER_PIECE) {
    const piece = sql.param(ids.slice(start, start + ROWS_PER_PIECE));
    await db.execute(sql`delete from story_cards where story_id = ${storyId} and id = any(${piece}::int[])`);
  }
}
