// A branch's tally of its copied passages' terms: the terms kept add up over the statements, a new
// term takes a place while there is room (the most held first), and one without room, or one its
// source does not keep, leaves the tally saturated.
import { describe, expect, it } from 'vitest';
import { addToTally, emptyTally, MAX_STORY_TERMS } from './memory-statistics';

const row = (term: string, holding: number, left = false) => ({ term, holding, length: term === '' ? 10 : 0, left });

describe('addToTally', () => {
  it('adds each term and the totals up over the statements', () => {
    const tally = emptyTally();
    addToTally(tally, [row('lamp', 2), row('keeper', 1), row('', 3)]);
    addToTally(tally, [row('lamp', 1), row('', 1)]);
    expect(tally).toEqual({
      holding: new Map([
        ['lamp', 3],
        ['keeper', 1],
      ]),
      passages: 4,
      length: 20,
      saturated: false,
    });
  });

  it('keeps at most MAX_STORY_TERMS terms, the most held first, and is then saturated', () => {
    const tally = emptyTally();
    addToTally(
      tally,
      Array.from({ length: MAX_STORY_TERMS - 1 }, (_, i) => row(`t${i}`, 1)),
    );
    addToTally(tally, [row('rare', 1), row('common', 5), row('t0', 1)]);
    expect(tally.holding.size).toBe(MAX_STORY_TERMS);
    expect(tally.holding.get('common')).toBe(5);
    expect(tally.holding.has('rare')).toBe(false);
    expect(tally.holding.get('t0')).toBe(2);
    expect(tally.saturated).toBe(true);
  });

  it('is saturated when the passages hold a term their source does not keep', () => {
    const tally = emptyTally();
    addToTally(tally, [row('lamp', 1), row('', 1, true)]);
    expect(tally.saturated).toBe(true);
  });
});
