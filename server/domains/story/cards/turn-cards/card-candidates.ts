// Which of a story's cards are candidates on a turn, and why: the always-on ones (no history
// needed, so they are chosen while it is on its way), then each keyable card by its key's hit and
// its timing across the shown replies (sticky, cooldown, delay). The cards that are listed but not
// sent (disabled, blocked by their timing) are kept with their reason for the context record.
import type { CardHead } from '@server/db/repositories/story-cards';
import type { CardCandidate } from '../budget';
import type { KeyHit } from '../matching';
import { cardTiming, type CardHistoryIndex } from '../timing';
import type { TurnCardsInput } from './types';

/** The turn's choice as it is made: its candidates by group, in the order they are fitted, and the cards listed unsent. */
export interface Choice {
  alwaysOn: CardCandidate[];
  /** The keyable cards whose key came up, or which stay on (sticky). */
  candidates: CardCandidate[];
  /** The cards the sent recursive cards named. */
  found: CardCandidate[];
  notSent: Array<{ card: CardHead; reason: string }>;
  /** The cards whose key (or another card) brought them in, and those kept on by stickiness. */
  keyed: Set<number>;
  sticky: Set<number>;
}

export function candidate(card: CardHead, reason: string): CardCandidate {
  return {
    id: card.id,
    name: card.name,
    content: '',
    priority: card.priority,
    alwaysOn: card.alwaysOn,
    distance: 0,
    reason,
  };
}

function keyReason(hit: KeyHit, actionLabel: string): string {
  const where =
    hit.distance === 0
      ? `in ${actionLabel}`
      : hit.distance === 1
        ? 'in the last message'
        : `${hit.distance} messages back`;
  return `key '${hit.key}' ${where}`;
}

/** A choice begun with the always-on cards: the enabled ones are candidates, the disabled listed unsent. */
export function alwaysOnChoice(heads: CardHead[]): Choice {
  const choice: Choice = { alwaysOn: [], candidates: [], found: [], notSent: [], keyed: new Set(), sticky: new Set() };
  for (const card of heads) {
    if (!card.alwaysOn) continue;
    if (card.enabled) choice.alwaysOn.push({ ...candidate(card, 'always on'), distance: -1 });
    else choice.notSent.push({ card, reason: 'always on, but disabled' });
  }
  return choice;
}

/** Adds the keyable cards (their hits in `hits`, by position) that the turn's keys and their timing bring in. */
export function chooseKeyed(
  choice: Choice,
  keyable: CardHead[],
  hits: Array<KeyHit | null>,
  history: CardHistoryIndex,
  input: Pick<TurnCardsInput, 'turn' | 'actionLabel'>,
): void {
  for (const [at, card] of keyable.entries()) {
    const hit = hits[at];
    const timing = cardTiming(card, input.turn, hit !== null, history);
    if (timing.state === 'off') continue;
    if (!card.enabled) {
      if (hit) choice.notSent.push({ card, reason: `disabled (${keyReason(hit, input.actionLabel)})` });
      continue;
    }
    if (timing.state === 'blocked') choice.notSent.push({ card, reason: timing.reason });
    else if (timing.state === 'sticky') {
      choice.sticky.add(card.id);
      choice.candidates.push({
        ...candidate(card, `sticky ${timing.turnsAgo} of ${timing.of}`),
        distance: timing.turnsAgo,
      });
    } else if (hit) {
      choice.keyed.add(card.id);
      choice.candidates.push({ ...candidate(card, keyReason(hit, input.actionLabel)), distance: hit.distance });
    }
  }
}
