// What a turn needs of a story's card heads beyond the heads themselves (the cards by id, those a
// key may bring in, how much history their timing needs), made once per heads list: card-heads.ts
// keeps one list per version of a story's cards, so a turn on unchanged cards finds it made.
import type { CardHead } from '@server/db/repositories/story-cards';
import { historyTurnsNeeded } from '../timing';

export interface HeadsIndex {
  byId: Map<number, CardHead>;
  /** The cards a key may bring in (not always on), in the heads' order: one list object, so matching keeps its answers per text. */
  keyable: CardHead[];
  /** Turns of history the cards' sticky and cooldown need (0: none). */
  historyTurns: number;
}
const headsIndexes = new WeakMap<CardHead[], HeadsIndex>();

export function indexHeads(heads: CardHead[]): HeadsIndex {
  let index = headsIndexes.get(heads);
  if (!index) {
    const timed = heads.filter((card) => card.sticky > 0 || card.cooldown > 0);
    index = {
      byId: new Map(heads.map((card) => [card.id, card])),
      keyable: heads.filter((card) => !card.alwaysOn),
      historyTurns: timed.length > 0 ? historyTurnsNeeded(timed) : 0,
    };
    headsIndexes.set(heads, index);
  }
  return index;
}
