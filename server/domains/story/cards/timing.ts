// Story-card timing: sticky, cooldown and delay. They are worked out from the story's history (what
// each earlier shown reply's record says was on) rather than kept as counters, so undo, erase and
// branches leave them right: the history of the line being played is the only state there is.

/** One earlier reply of the story's shown line: its turn number, the cards whose key (or another card's content) brought them in, and every card that was on (keyed, recursion or sticky; not always-on). */
export interface CardHistoryTurn {
  turn: number;
  keyed: number[];
  on: number[];
}

export type CardTimingState =
  /** Its key is up now and nothing blocks it. */
  | { state: 'keyed' }
  /** On because its key came up turnsAgo turns ago (1..sticky). */
  | { state: 'sticky'; turnsAgo: number; of: number }
  /** It would be on, but: e.g. 'delayed until turn 5', 'cooling down: 1 of 2 turns'. */
  | { state: 'blocked'; reason: string }
  /** Not keyed now, not sticky. */
  | { state: 'off' };

/** History read at most, whatever the cards ask: a longer look back costs reads for no player-visible gain. */
const HISTORY_TURNS_MAX = 200;

/** The newest turns a card's timing can look back on: history older than this is never read. */
export function historyTurnsNeeded(cards: Array<{ sticky: number; cooldown: number }>): number {
  let longest = 0;
  for (const card of cards) longest = Math.max(longest, card.sticky + card.cooldown);
  return Math.min(longest + 1, HISTORY_TURNS_MAX);
}

const turns = (count: number) => `${count} turn${count === 1 ? '' : 's'}`;

/** The turns each card was last keyed and last on, before the turn the index was made for. */
export type CardHistoryIndex = ReadonlyMap<number, { keyed: number; on: number }>;

/**
 * The history of one turn, made once for every card that asks: one pass over the rows (up to
 * HISTORY_TURNS_MAX of them, each listing up to a story's cards), rather than each card looking
 * through every row (cards × rows × ids). History holds earlier turns of the shown line in any order
 * (entries at or after `turn` are ignored), and may have gaps where turns were undone or erased.
 */
export function indexHistory(history: CardHistoryTurn[], turn: number): CardHistoryIndex {
  const index = new Map<number, { keyed: number; on: number }>();
  const last = (id: number) => {
    let found = index.get(id);
    if (!found) index.set(id, (found = { keyed: -Infinity, on: -Infinity }));
    return found;
  };
  for (const entry of history) {
    if (entry.turn >= turn) continue;
    const { keyed, on } = entry;
    for (const id of keyed) {
      const card = last(id);
      card.keyed = Math.max(card.keyed, entry.turn);
      // A keyed card was on, even if a record forgot to list it among the cards on.
      card.on = Math.max(card.on, entry.turn);
    }
    for (const id of on) {
      const card = last(id);
      card.on = Math.max(card.on, entry.turn);
    }
  }
  return index;
}

/**
 * Where a card stands on this turn. turn is the current action's turn (actions count from 1, the
 * opening is turn 0); history is indexHistory's for that turn.
 */
export function cardTiming(
  card: { id: number; sticky: number; cooldown: number; delay: number },
  turn: number,
  keyedNow: boolean,
  history: CardHistoryIndex,
): CardTimingState {
  const last = history.get(card.id);
  const lastKeyed = last?.keyed ?? -Infinity;
  const lastOn = last?.on ?? -Infinity;
  const sinceKeyed = turn - lastKeyed;
  const withinSticky = sinceKeyed >= 1 && sinceKeyed <= card.sticky;

  let state: CardTimingState;
  if (keyedNow) {
    // A key coming up during the sticky run refreshes it; otherwise the cooldown since it was last on holds it back.
    const sinceOn = turn - lastOn;
    state =
      !withinSticky && sinceOn >= 1 && sinceOn <= card.cooldown
        ? { state: 'blocked', reason: `cooling down: ${sinceOn} of ${turns(card.cooldown)}` }
        : { state: 'keyed' };
  } else if (withinSticky) {
    state = { state: 'sticky', turnsAgo: sinceKeyed, of: card.sticky };
  } else {
    return { state: 'off' };
  }
  // The delay holds back whatever would be on (keyed or sticky) until the story reaches its turn.
  if (turn < card.delay) return { state: 'blocked', reason: `delayed until turn ${card.delay}` };
  return state;
}
