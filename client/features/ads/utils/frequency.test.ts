import { describe, expect, it } from 'vitest';
import { countAdEvent, levelCap, OPENED_COUNTER, type AdCounter, type AdRuleSettings } from './frequency';

/** Runs `events` counted events from the opened chat; answers at which events (1-based) an ad showed and the last counter. */
function run(events: number, settings: AdRuleSettings, start: AdCounter = OPENED_COUNTER) {
  let counter = start;
  const shownAt: number[] = [];
  for (let event = 1; event <= events; event += 1) {
    const next = countAdEvent(counter, settings);
    if (next.showAd) shownAt.push(event);
    counter = next.counter;
  }
  return { shownAt, counter };
}

describe('the in-chat ad frequency rule', () => {
  it('starts at level 1 with no messages counted', () => {
    expect(OPENED_COUNTER).toEqual({ messageCount: 0, currentFrequencyLevel: 1 });
  });

  it('shows an ad once the count reaches the level, then resets the count and raises the level by 1', () => {
    const settings = { showInChat: true, messageFrequency: 10 };
    const first = countAdEvent(OPENED_COUNTER, settings);
    expect(first).toEqual({ showAd: true, counter: { messageCount: 0, currentFrequencyLevel: 2 } });
    const second = countAdEvent(first.counter, settings);
    expect(second).toEqual({ showAd: false, counter: { messageCount: 1, currentFrequencyLevel: 2 } });
    const third = countAdEvent(second.counter, settings);
    expect(third).toEqual({ showAd: true, counter: { messageCount: 0, currentFrequencyLevel: 3 } });
  });

  it('spaces ads 1, 2, 3 … 10 events apart and never wider than 10 (the slider at its maximum)', () => {
    const { shownAt, counter } = run(80, { showInChat: true, messageFrequency: 10 });
    const gaps = shownAt.map((event, i) => event - (shownAt[i - 1] ?? 0));
    expect(gaps.slice(0, 10)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(gaps.slice(10).every((gap) => gap === 10)).toBe(true);
    expect(counter.currentFrequencyLevel).toBe(10);
  });

  it('settles at the player’s frequency: with the default 3, gaps of 1, 2, then every 3', () => {
    const { shownAt } = run(14, { showInChat: true, messageFrequency: 3 });
    expect(shownAt).toEqual([1, 3, 6, 9, 12]);
  });

  it('with frequency 1 an ad follows every counted event', () => {
    expect(run(4, { showInChat: true, messageFrequency: 1 }).shownAt).toEqual([1, 2, 3, 4]);
  });

  it('shows nothing and keeps counting while in-chat ads are off', () => {
    const { shownAt, counter } = run(5, { showInChat: false, messageFrequency: 3 });
    expect(shownAt).toEqual([]);
    expect(counter).toEqual({ messageCount: 5, currentFrequencyLevel: 1 });
  });

  it('caps the level at 10 whatever is stored, and never below 1', () => {
    expect(levelCap({ showInChat: true, messageFrequency: 99 })).toBe(10);
    expect(levelCap({ showInChat: true, messageFrequency: 0 })).toBe(1);
    const next = countAdEvent(
      { messageCount: 9, currentFrequencyLevel: 10 },
      { showInChat: true, messageFrequency: 10 },
    );
    expect(next).toEqual({ showAd: true, counter: { messageCount: 0, currentFrequencyLevel: 10 } });
  });
});
