// One level of recursion: the recursive cards that were sent (whole or cut, the first
// RECURSION_SOURCES_MAX in the budget's order) are scanned as sent for the other cards' keys, and
// the cards they name become candidates of their own, fitted into the room the first ones left.
// A card found this way is not scanned in turn, so the work stays bounded by the cards times the
// texts scanned, never by cards × cards.
import type { CardHead } from '@server/db/repositories/story-cards';
import { CARD_SCAN_DEPTH_MAX } from '@shared/schemas/story-cards';
import type { FittedCard } from '../budget';
import type { createCardScanner } from '../matching';
import { cardTiming, type CardHistoryIndex } from '../timing';
import { candidate, type Choice } from './card-candidates';
import type { Pass } from './card-passes';

/**
 * Sent recursive cards whose contents a turn scans at most. A content is scanned as one more
 * message would be, and a card scans at most CARD_SCAN_DEPTH_MAX messages besides the action: so
 * recursion costs a turn no more than its cards' look at the window can.
 */
export const RECURSION_SOURCES_MAX = CARD_SCAN_DEPTH_MAX;

/** A pass's sent cards that are recursive: what recursion scans, in the budget's order. */
export const recursiveSent = (pass: Pass, byId: ReadonlyMap<number, CardHead>) =>
  pass.fitted.filter((f) => f.included !== 'dropped' && byId.get(f.card.id)?.recursive);

/** The cards that may be found by recursion which these sources name, each with the first source naming it. */
export function namedBy(
  scanner: Pick<ReturnType<typeof createCardScanner>, 'namedIn'>,
  keyable: CardHead[],
  sources: FittedCard[],
): Map<number, FittedCard> {
  const named = new Map<number, FittedCard>();
  if (sources.length === 0) return named;
  const first = scanner.namedIn(
    keyable,
    sources.map((s) => s.content),
  );
  for (const [at, card] of keyable.entries())
    if (card.enabled && first[at] !== -1) named.set(card.id, sources[first[at]]);
  return named;
}

/**
 * Adds to the choice's found cards those the sources named (`named` first, then `namedLater`) that
 * were not already in play, unless their timing blocks them; a card is named by what the narrator
 * is sent of a source, so a part cut away names nothing.
 */
export function findByRecursion(
  choice: Choice,
  keyable: CardHead[],
  named: Map<number, FittedCard>,
  namedLater: Map<number, FittedCard>,
  history: CardHistoryIndex,
  turn: number,
): void {
  if (named.size + namedLater.size === 0) return;
  const inPlay = new Set([...choice.candidates.map((c) => c.id), ...choice.notSent.map((n) => n.card.id)]);
  for (const card of keyable) {
    if (inPlay.has(card.id)) continue;
    const source = named.get(card.id) ?? namedLater.get(card.id);
    if (!source) continue;
    const timing = cardTiming(card, turn, true, history);
    if (timing.state === 'blocked') choice.notSent.push({ card, reason: timing.reason });
    else {
      choice.keyed.add(card.id);
      choice.found.push({ ...candidate(card, `named in card '${source.card.name}'`), distance: source.card.distance });
    }
  }
}
