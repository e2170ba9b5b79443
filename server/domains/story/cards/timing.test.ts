// Story-card timing: delay, sticky and cooldown read from the shown line's history, in any order and
// with the gaps undo and erase leave; the history indexed once a turn, one pass over its rows.
import { describe, expect, it } from 'vitest';
import {
  cardTiming as timingOf,
  historyTurnsNeeded,
  indexHistory,
  type CardHistoryTurn,
  type CardTimingState,
} from './timing';

/** A card's timing on `turn` from these history rows, indexed as a turn indexes them. */
const cardTiming = (
  timed: Parameters<typeof timingOf>[0],
  turn: number,
  keyedNow: boolean,
  history: CardHistoryTurn[],
): CardTimingState => timingOf(timed, turn, keyedNow, indexHistory(history, turn));

const card = (fields: { sticky?: number; cooldown?: number; delay?: number } = {}) => ({
  id: 7,
  sticky: 0,
  cooldown: 0,
  delay: 0,
  ...fields,
});

/** One history entry: the card keyed ('k'), on without its key ('o', e.g. sticky), or absent ('-'). */
const entry = (turn: number, mark: 'k' | 'o' | '-'): CardHistoryTurn => ({
  turn,
  keyed: mark === 'k' ? [7, 3] : [3],
  on: mark === '-' ? [3] : [7, 3],
});

/**
 * Plays turns 1..keyedAt.length: keyedAt[i] says the card's key is up on turn i + 1. Each turn's
 * state is recorded in the history as a reply's record would, and the states are returned as letters:
 * K keyed, S sticky, B blocked, - off.
 */
function play(fields: Parameters<typeof card>[0], keyedAt: boolean[]): string {
  const history: CardHistoryTurn[] = [];
  let letters = '';
  keyedAt.forEach((keyedNow, index) => {
    const turn = index + 1;
    const timing = cardTiming(card(fields), turn, keyedNow, history);
    letters += { keyed: 'K', sticky: 'S', blocked: 'B', off: '-' }[timing.state];
    history.unshift({
      turn,
      keyed: timing.state === 'keyed' ? [7] : [],
      on: timing.state === 'keyed' || timing.state === 'sticky' ? [7] : [],
    });
  });
  return letters;
}
const always = (count: number) => Array<boolean>(count).fill(true);
const at = (count: number, ...turns: number[]) =>
  Array.from({ length: count }, (_, index) => turns.includes(index + 1));

describe('historyTurnsNeeded', () => {
  it('is the longest sticky plus cooldown, plus one, capped at 200', () => {
    expect(historyTurnsNeeded([])).toBe(1);
    expect(historyTurnsNeeded([{ sticky: 0, cooldown: 0 }])).toBe(1);
    expect(
      historyTurnsNeeded([
        { sticky: 2, cooldown: 1 },
        { sticky: 0, cooldown: 5 },
      ]),
    ).toBe(6);
    expect(historyTurnsNeeded([{ sticky: 1000, cooldown: 1000 }])).toBe(200);
    expect(historyTurnsNeeded([{ sticky: 150, cooldown: 49 }])).toBe(200);
  });
});

describe('cardTiming without sticky, cooldown or delay', () => {
  it('is keyed when its key is up and off otherwise', () => {
    expect(cardTiming(card(), 3, true, [entry(2, 'k')])).toEqual({ state: 'keyed' });
    expect(cardTiming(card(), 3, false, [entry(2, 'k')])).toEqual({ state: 'off' });
    expect(cardTiming(card(), 1, false, [])).toEqual({ state: 'off' });
    expect(play({}, at(5, 1, 2, 4))).toBe('KK-K-');
  });
});

describe('delay', () => {
  it('blocks the card until the story reaches its turn', () => {
    const delayed = card({ delay: 5 });
    expect(cardTiming(delayed, 4, true, [])).toEqual({ state: 'blocked', reason: 'delayed until turn 5' });
    expect(cardTiming(delayed, 0, true, [])).toEqual({ state: 'blocked', reason: 'delayed until turn 5' });
    expect(cardTiming(delayed, 5, true, [])).toEqual({ state: 'keyed' });
    expect(play({ delay: 3 }, always(5))).toBe('BBKKK');
  });

  it('leaves a card whose key is not up off, not blocked', () => {
    expect(cardTiming(card({ delay: 5 }), 2, false, [])).toEqual({ state: 'off' });
  });

  it('blocks a sticky run too', () => {
    // Keyed on turn 2 under an older record, now delayed until turn 5 (its delay was raised since).
    expect(cardTiming(card({ sticky: 3, delay: 5 }), 3, false, [entry(2, 'k')])).toEqual({
      state: 'blocked',
      reason: 'delayed until turn 5',
    });
    expect(cardTiming(card({ sticky: 3, delay: 5 }), 5, false, [entry(4, 'k')])).toEqual({
      state: 'sticky',
      turnsAgo: 1,
      of: 3,
    });
  });
});

describe('sticky', () => {
  it('stays on for sticky turns after its key came up', () => {
    const sticky = card({ sticky: 2 });
    expect(cardTiming(sticky, 11, false, [entry(10, 'k')])).toEqual({ state: 'sticky', turnsAgo: 1, of: 2 });
    expect(cardTiming(sticky, 12, false, [entry(11, 'o'), entry(10, 'k')])).toEqual({
      state: 'sticky',
      turnsAgo: 2,
      of: 2,
    });
    expect(cardTiming(sticky, 13, false, [entry(12, 'o'), entry(11, 'o'), entry(10, 'k')])).toEqual({ state: 'off' });
    expect(play({ sticky: 2 }, at(6, 1))).toBe('KSS---');
  });

  it('is refreshed by the key coming up again', () => {
    expect(cardTiming(card({ sticky: 2 }), 12, true, [entry(11, 'o'), entry(10, 'k')])).toEqual({ state: 'keyed' });
    expect(play({ sticky: 2 }, at(8, 1, 3))).toBe('KSKSS---');
  });

  it('counts from the newest turn the card was keyed, not from when it was merely on', () => {
    expect(cardTiming(card({ sticky: 1 }), 12, false, [entry(11, 'o'), entry(10, 'k')])).toEqual({ state: 'off' });
  });
});

describe('cooldown', () => {
  it('with no sticky, a card keyed every turn is on at most every cooldown + 1 turns', () => {
    expect(play({ cooldown: 2 }, always(9))).toBe('KBBKBBKBB');
    expect(play({ cooldown: 1 }, always(6))).toBe('KBKBKB');
  });

  it('says how far through its cooldown the card is', () => {
    const cooling = card({ cooldown: 2 });
    expect(cardTiming(cooling, 11, true, [entry(10, 'k')])).toEqual({
      state: 'blocked',
      reason: 'cooling down: 1 of 2 turns',
    });
    expect(cardTiming(cooling, 12, true, [entry(10, 'k')])).toEqual({
      state: 'blocked',
      reason: 'cooling down: 2 of 2 turns',
    });
    expect(cardTiming(cooling, 13, true, [entry(10, 'k')])).toEqual({ state: 'keyed' });
    expect(cardTiming(card({ cooldown: 1 }), 11, true, [entry(10, 'k')])).toEqual({
      state: 'blocked',
      reason: 'cooling down: 1 of 1 turn',
    });
  });

  it('runs from the last turn the card was on, sticky turns included', () => {
    // sticky 2, cooldown 1: keyed at T, sticky T+1 and T+2, blocked at T+3 if keyed, keyed again at T+4.
    expect(play({ sticky: 2, cooldown: 1 }, at(5, 1, 4, 5))).toBe('KSSBK');
    expect(cardTiming(card({ cooldown: 2 }), 11, true, [entry(10, 'o'), entry(5, 'k')])).toEqual({
      state: 'blocked',
      reason: 'cooling down: 1 of 2 turns',
    });
  });

  it('does not hold back a key that comes up within the sticky run', () => {
    expect(play({ sticky: 2, cooldown: 3 }, always(6))).toBe('KKKKKK');
    expect(play({ sticky: 1, cooldown: 2 }, at(7, 1, 2, 4, 5, 6, 7))).toBe('KKSBBKK');
  });

  it('leaves a card whose key is not up off, not blocked', () => {
    expect(cardTiming(card({ cooldown: 2 }), 11, false, [entry(10, 'k')])).toEqual({ state: 'off' });
  });
});

describe('history as undo and erase leave it', () => {
  it('reads entries in any order', () => {
    const history = [entry(8, '-'), entry(10, 'k'), entry(9, '-'), entry(4, 'k')];
    expect(cardTiming(card({ sticky: 2 }), 11, false, history)).toEqual({ state: 'sticky', turnsAgo: 1, of: 2 });
    expect(cardTiming(card({ sticky: 2 }), 11, false, [...history].reverse())).toEqual({
      state: 'sticky',
      turnsAgo: 1,
      of: 2,
    });
  });

  it('counts turns by their numbers across gaps', () => {
    // Turns 9 and 10 were undone: the shown line goes 8, then this turn is 9 again.
    const history = [entry(8, 'k'), entry(7, '-')];
    expect(cardTiming(card({ sticky: 1 }), 9, false, history)).toEqual({ state: 'sticky', turnsAgo: 1, of: 1 });
    // A line with a hole (turn 9 missing from the records): turn 10 is 2 after the key.
    expect(cardTiming(card({ sticky: 1 }), 10, false, history)).toEqual({ state: 'off' });
    expect(cardTiming(card({ sticky: 2 }), 10, false, history)).toEqual({ state: 'sticky', turnsAgo: 2, of: 2 });
  });

  it('forgets what an undone reply turned on', () => {
    const withReply = [entry(10, 'k'), entry(9, '-')];
    const afterUndo = withReply.slice(1);
    expect(cardTiming(card({ cooldown: 3 }), 11, true, withReply).state).toBe('blocked');
    expect(cardTiming(card({ cooldown: 3 }), 10, true, afterUndo)).toEqual({ state: 'keyed' });
  });

  it('ignores entries at or after the current turn', () => {
    const history = [entry(12, 'k'), entry(11, 'k'), entry(5, '-')];
    expect(cardTiming(card({ sticky: 3, cooldown: 3 }), 11, false, history)).toEqual({ state: 'off' });
    expect(cardTiming(card({ cooldown: 3 }), 11, true, history)).toEqual({ state: 'keyed' });
  });

  it('treats a keyed card as on even where a record left it out of the cards on', () => {
    const history: CardHistoryTurn[] = [{ turn: 10, keyed: [7], on: [] }];
    expect(cardTiming(card({ cooldown: 1 }), 11, true, history)).toEqual<CardTimingState>({
      state: 'blocked',
      reason: 'cooling down: 1 of 1 turn',
    });
  });

  it('reads only its own card', () => {
    const history: CardHistoryTurn[] = [{ turn: 10, keyed: [3, 70], on: [3, 70, 77] }];
    expect(cardTiming(card({ sticky: 3, cooldown: 3 }), 11, false, history)).toEqual({ state: 'off' });
    expect(cardTiming(card({ sticky: 3, cooldown: 3 }), 11, true, history)).toEqual({ state: 'keyed' });
  });
});

describe('indexHistory', () => {
  it('reads each row once, however many cards then ask', () => {
    let reads = 0;
    /** A row whose lists count how often they are read. */
    const counted = (turn: number, keyed: number[], on: number[]): CardHistoryTurn => ({
      turn,
      get keyed() {
        reads++;
        return keyed;
      },
      get on() {
        reads++;
        return on;
      },
    });
    const ids = Array.from({ length: 500 }, (_, i) => i + 1);
    const history = Array.from({ length: 50 }, (_, i) => counted(100 - i, i % 2 === 0 ? ids : [], ids));
    const index = indexHistory(history, 101);
    const states = ids.map((id) => timingOf({ id, sticky: 3, cooldown: 0, delay: 0 }, 101, false, index));
    expect(states.every((s) => s.state === 'sticky' && s.turnsAgo === 1)).toBe(true);
    expect(reads).toBe(2 * history.length);
    expect(index.get(7)).toEqual({ keyed: 100, on: 100 });
    // Rows at or after the turn are not history.
    expect(indexHistory([{ turn: 5, keyed: [7], on: [7] }], 5).get(7)).toBeUndefined();
  });
});
