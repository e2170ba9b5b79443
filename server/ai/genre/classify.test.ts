// The genre decision against the corpus a person labelled, and its promises: the mix wins, weights
// are a sorted distribution, a default when nothing matches, bounded reading, determinism.
import { GENRES } from '@shared/constants';
import { composeRandomPrompt, composeStoryPrompt } from '@shared/prompt/genre-mix';
import { describe, expect, it } from 'vitest';
import { classifyGenre, DEFAULT_GENRE, GENRE_READ_LIMIT } from './index';
import { GENRE_CORPUS } from './genre-corpus';
import { GENRE_CUES } from './lexicon';

describe('classifyGenre over the corpus', () => {
  it('agrees with the person-given genre on at least 95% of the premises', () => {
    const misses = GENRE_CORPUS.map((entry) => ({ ...entry, read: classifyGenre(entry.premise).genre })).filter(
      (entry) => entry.read !== entry.genre,
    );
    const agreement = 1 - misses.length / GENRE_CORPUS.length;
    const report = misses.map((m) => `${m.genre} read as ${m.read}: ${m.premise.slice(0, 100)}`).join('\n');
    expect(agreement, `agreement ${(agreement * 100).toFixed(1)}%, misses:\n${report}`).toBeGreaterThanOrEqual(0.95);
  });

  it('holds at least six ordinary premises per genre, the three once misread among them', () => {
    for (const genre of GENRES) expect(GENRE_CORPUS.filter((e) => e.genre === genre).length).toBeGreaterThanOrEqual(6);
    expect(GENRE_CORPUS.length).toBeGreaterThanOrEqual(60);
    expect(classifyGenre('I open a bakery in Paris and fall for the florist next door').genre).toBe('romance');
    expect(classifyGenre('In 1815 I serve as a courier for the Duke of Wellington before Waterloo').genre).toBe(
      'historical',
    );
    expect(classifyGenre('A night market on a floating city where lanterns whisper secrets').genre).toBe('fantasy');
  });

  it('lists no cue twice within a genre', () => {
    for (const genre of GENRES) {
      const cues = Object.values(GENRE_CUES[genre]).flatMap((list) => list.split(',').map((cue) => cue.trim()));
      expect(
        cues.filter((cue, i) => cues.indexOf(cue) !== i),
        genre,
      ).toEqual([]);
    }
  });
});

describe('classifyGenre', () => {
  it('takes the genre mix over the words, weighted by its percentages', () => {
    const reading = classifyGenre(
      composeStoryPrompt('The detective studies the murder scene for a clue', { fantasy: 40, horror: 30 }),
    );
    expect(reading.source).toBe('mix');
    expect(reading.genre).toBe('fantasy');
    expect(reading.weights.map((w) => w.genre)).toEqual(['fantasy', 'horror']);
    expect(reading.weights[0].weight).toBeCloseTo(4 / 7);
    const random = classifyGenre(composeRandomPrompt({ scifi: 50, comedy: 50 }));
    expect(random).toEqual({
      genre: 'scifi',
      source: 'mix',
      weights: [
        { genre: 'scifi', weight: 0.5 },
        { genre: 'comedy', weight: 0.5 },
      ],
    });
  });

  it('reads "mixing different genres" as an even mix of all ten, led by the default', () => {
    const reading = classifyGenre(composeRandomPrompt(null));
    expect(reading.source).toBe('mix');
    expect(reading.genre).toBe(DEFAULT_GENRE);
    expect(reading.weights).toHaveLength(GENRES.length);
    for (const w of reading.weights) expect(w.weight).toBeCloseTo(0.1);
  });

  it('gives weights that sum to 1, largest first, with the genre the first of them', () => {
    for (const { premise } of GENRE_CORPUS) {
      const { genre, weights } = classifyGenre(premise);
      expect(weights.reduce((sum, w) => sum + w.weight, 0)).toBeCloseTo(1, 10);
      for (let i = 1; i < weights.length; i += 1)
        expect(weights[i - 1].weight).toBeGreaterThanOrEqual(weights[i].weight);
      expect(genre).toBe(weights[0].genre);
    }
  });

  it('falls back to the default when no word points anywhere', () => {
    expect(classifyGenre('Something happens')).toEqual({
      genre: DEFAULT_GENRE,
      source: 'default',
      weights: [{ genre: DEFAULT_GENRE, weight: 1 }],
    });
    expect(classifyGenre('').source).toBe('default');
  });

  it('matches whole words and their inflections, not substrings', () => {
    expect(classifyGenre('I find myself alone').source).toBe('default'); // no "elf" in "myself"
    expect(classifyGenre('Two dragons circle the tower').genre).toBe('fantasy');
    expect(classifyGenre('The house is haunted').genre).toBe('horror');
    expect(classifyGenre('We plan the heist of the century').genre).toBe('thriller');
  });

  it('reads years and centuries as a time: the past historical, the far future science fiction', () => {
    expect(classifyGenre('It is 1666 and London is burning').genre).toBe('historical');
    expect(classifyGenre('I build a cathedral in the 12th century').genre).toBe('historical');
    expect(classifyGenre('In 2340 I am a courier').genre).toBe('scifi');
    // A year and magic: the magic is the stronger cue, so the story is fantasy (historical has no magic).
    expect(classifyGenre('In 1815 a wizard serves the Duke').genre).toBe('fantasy');
  });

  it('reads no further than the cap, so a huge premise costs no more than a long one', () => {
    const filler = 'x '.repeat(GENRE_READ_LIMIT);
    expect(classifyGenre(`${filler} a sheriff rides into a dusty town`).source).toBe('default');
    expect(classifyGenre(`${filler}\n\nMix in the following genre preferences: 100% horror.`).source).toBe('default');
    const huge = `A sheriff rides into town. ${'and then '.repeat(120_000)} a dragon`;
    expect(huge.length).toBeGreaterThan(1_000_000);
    const reading = classifyGenre(huge);
    expect(reading.genre).toBe('western');
    expect(reading.weights.map((w) => w.genre)).not.toContain('fantasy');
  });

  it('is deterministic', () => {
    for (const { premise } of GENRE_CORPUS.slice(0, 20)) expect(classifyGenre(premise)).toEqual(classifyGenre(premise));
  });
});
