// The prompt composition, checked against the spec's exact wording.
import { describe, expect, it } from 'vitest';
import {
  composeRandomPrompt,
  composeStoryPrompt,
  genreMixSentence,
  genreShares,
  parseGenreShares,
  scenarioOf,
} from './genre-mix';

describe('genre mix sentence', () => {
  it('lists non-zero genres as "N% genre", largest first, after the spec lead-in', () => {
    expect(genreMixSentence({ fantasy: 20, horror: 50, scifi: 0, mystery: 30 })).toBe(
      'Mix in the following genre preferences: 50% horror, 30% mystery, 20% fantasy.',
    );
  });

  it('keeps the spec genre order for ties and omits zero shares', () => {
    expect(genreShares({ horror: 25, fantasy: 25, scifi: 25, mystery: 25, western: 0 }).map((s) => s.genre)).toEqual([
      'fantasy',
      'scifi',
      'mystery',
      'horror',
    ]);
  });

  it('is empty when every share is zero', () => {
    expect(genreMixSentence({ fantasy: 0 })).toBe('');
    expect(genreMixSentence({})).toBe('');
  });
});

describe('story prompt', () => {
  it('appends the mix sentence to the trimmed scenario when the mix is active', () => {
    expect(composeStoryPrompt('  A lighthouse keeper finds a door  ', { mystery: 60, horror: 40 })).toBe(
      'A lighthouse keeper finds a door\n\nMix in the following genre preferences: 60% mystery, 40% horror.',
    );
  });

  it('is the scenario alone when the mix is inactive or all zero', () => {
    expect(composeStoryPrompt('A heist', null)).toBe('A heist');
    expect(composeStoryPrompt('A heist', { thriller: 0 })).toBe('A heist');
  });
});

describe('random prompt', () => {
  it('combines the active mix and ends with the twist', () => {
    expect(composeRandomPrompt({ fantasy: 25, scifi: 25, mystery: 25, horror: 25 })).toBe(
      'Create a story that combines 25% fantasy, 25% scifi, 25% mystery, 25% horror. Surprise me with an unexpected twist!',
    );
  });

  it('mixes different genres when no mix is active', () => {
    expect(composeRandomPrompt(null)).toBe(
      'Create a story mixing different genres. Surprise me with an unexpected twist!',
    );
  });
});

describe('parseGenreShares', () => {
  it('reads the shares back out of a composed prompt and ignores unknown words', () => {
    const prompt = composeStoryPrompt('100% sure of it: a western', { western: 70, comedy: 30 });
    expect(parseGenreShares(prompt)).toEqual([
      { genre: 'western', percent: 70 },
      { genre: 'comedy', percent: 30 },
    ]);
    expect(parseGenreShares('A quiet tale')).toEqual([]);
  });
});

describe('scenarioOf', () => {
  it("gives back the player's own scenario from a composed prompt, and nothing of a random one", () => {
    const scenario = 'A lighthouse keeper finds a message in a bottle.';
    expect(scenarioOf(composeStoryPrompt(scenario, { horror: 60, mystery: 40 }))).toBe(scenario);
    expect(scenarioOf(composeStoryPrompt(scenario, null))).toBe(scenario);
    expect(scenarioOf(composeRandomPrompt({ scifi: 50, comedy: 50 }))).toBe('');
    expect(scenarioOf(composeRandomPrompt(null))).toBe('');
  });
});
