// The offline narrator's voices: each genre writes in its own words and none of another's, the
// issue's three premises open in their genre with their own places and people, the player's
// preferences are visible in the text, and what the player took earlier comes back.
import { beforeAll, describe, expect, it } from 'vitest';
import { GENRES, type Genre } from '@shared/constants';
import { classifyGenre } from '@server/ai/genre';
import type { NarratorVoicePreferences, TurnRecord } from '../../types';
import { loadEnglish, type English } from '../action';
import { composeReply, type TurnSeed } from '../narrator';
import { VOICE_SIZES, VOICES } from '.';
import { GORE_WORDS } from './style';

let english: English;
beforeAll(async () => {
  english = await loadEnglish();
});
const reply = (seed: TurnSeed) => composeReply(seed, english);

/** Words only one genre may use: another genre's reply must never contain them. */
const SIGNATURES: Record<Genre, RegExp> = {
  fantasy: /\b(runes?|magic|spells?|wizard|dragon|prophecy|enchant\w*|sorcer\w*)\b/i,
  scifi: /\b(airlock|hologram|android|reactor|bulkhead|telemetry|viewport)\b/i,
  mystery: /\b(clues?|alibi|evidence|ledger|notebook)\b/i,
  horror: /\b(wallpaper|lullaby|nursery|haunt\w*)\b/i,
  western: /\b(saloon|sheriff|spurs|tumbleweed|prospector|mesas?)\b/i,
  postapocalyptic: /\b(wasteland|raiders?|scaveng\w*|fallout|geiger)\b/i,
  comedy: /\b(kazoo|rubber chicken|mime|goat|lobster)\b/i,
  historical: /\b(herald|quartermaster|proclamation|smithy|broadsheet)\b/i,
  romance: /\b(waltz|your heart|lilacs|shy smile)\b/i,
  thriller: /\b(handler|extraction|burner phone|safe house|earpiece)\b/i,
};
const MAGIC = /\b(magic\w*|runes?|spells?|wizards?|dragons?|sorcer\w*|enchant\w*|prophecy|witch\w*)\b/i;
const ARCHAIC = /\bere\b|'tis\b|\byonder\b/i;
const ACTIONS = ['I look around carefully', 'I open the door', 'walk towards the old church', 'greet Mara', 'wait'];
const mixPremise = (genre: Genre) =>
  `Create a story that combines 100% ${genre}. Surprise me with an unexpected twist!`;
const prefs = (over: Partial<NarratorVoicePreferences>): NarratorVoicePreferences => ({
  contentRating: 'general',
  narrativeStyle: 'descriptive',
  languageStyle: 'modern',
  ...over,
});

describe('the genre voices', () => {
  it('have the list sizes the no-repeat arithmetic counts on', () => {
    for (const genre of GENRES) {
      for (const [list, size] of Object.entries(VOICE_SIZES)) {
        expect(VOICES[genre][list as keyof typeof VOICE_SIZES], `${genre}.${list}`).toHaveLength(size);
      }
    }
  });

  it.each(GENRES)('%s writes in its own words and none of another genre', (genre) => {
    const own = [...VOICES[genre].sights, ...VOICES[genre].sounds, ...VOICES[genre].places, ...VOICES[genre].figures];
    for (let turn = 0; turn < 24; turn += 1) {
      const text = reply({
        storyId: 5,
        turn,
        attempt: 0,
        premise: mixPremise(genre),
        action: ACTIONS[turn % ACTIONS.length],
      });
      expect(
        own.some((words) => text.includes(words)),
        text,
      ).toBe(true);
      for (const other of GENRES.filter((g) => g !== genre))
        expect(text, `${other} in ${genre}`).not.toMatch(SIGNATURES[other]);
    }
  });

  it.each(GENRES)('%s never opens with the same person twice when the premise names none', (genre) => {
    for (let storyId = 1; storyId <= 60; storyId += 1) {
      const opening = reply({ storyId, turn: 0, attempt: 0, premise: mixPremise(genre), action: '' });
      for (const figure of VOICES[genre].figures)
        expect(opening.toLowerCase().split(figure.toLowerCase()).length - 1, opening).toBeLessThanOrEqual(1);
    }
  });
});

describe("the issue's premises", () => {
  it('a bakery in Paris is a romance that opens in Paris, with flour, and the florist', () => {
    const premise = 'I open a bakery in Paris and fall for the florist next door';
    expect(classifyGenre(premise).genre).toBe('romance');
    for (let attempt = 0; attempt < 4; attempt += 1) {
      const opening = reply({ storyId: 21, turn: 0, attempt, premise, action: premise });
      expect(opening).toMatch(/Paris/);
      expect(opening).toMatch(/bakery/i);
      expect(opening).toMatch(/florist/);
      expect(opening).not.toMatch(MAGIC);
      expect(opening).not.toMatch(/\b(hawk|gate|hooves|monsters?)\b/i);
    }
  });

  it("Wellington's courier is historical and never magical", () => {
    const premise = 'In 1815 I serve as a courier for the Duke of Wellington before Waterloo';
    expect(classifyGenre(premise).genre).toBe('historical');
    const opening = reply({ storyId: 22, turn: 0, attempt: 0, premise, action: premise });
    expect(opening).toMatch(/Duke of Wellington|Waterloo/);
    for (let turn = 0; turn < 40; turn += 1) {
      expect(reply({ storyId: 22, turn, attempt: 0, premise, action: ACTIONS[turn % 5] })).not.toMatch(MAGIC);
    }
  });

  it('a floating night market is fantasy and opens at the market', () => {
    const premise = 'A night market on a floating city where lanterns whisper secrets';
    expect(classifyGenre(premise).genre).toBe('fantasy');
    const opening = reply({ storyId: 23, turn: 0, attempt: 0, premise, action: premise });
    expect(opening).toMatch(/night market/);
    expect(opening).not.toMatch(SIGNATURES.mystery);
  });

  it("names the premise's people in the opening", () => {
    const premise = 'A detective named Ada Quill hunts a missing heiress through 1920s London';
    for (let attempt = 0; attempt < 4; attempt += 1) {
      expect(reply({ storyId: 24, turn: 0, attempt, premise, action: premise })).toMatch(/Ada Quill/);
    }
  });
});

describe("the player's preferences", () => {
  const many = (preferences: NarratorVoicePreferences, count = 60) =>
    Array.from({ length: count }, (_, turn) =>
      reply({
        storyId: 31,
        turn,
        attempt: 0,
        premise: mixPremise(GENRES[turn % GENRES.length]),
        action: ACTIONS[turn % ACTIONS.length],
        preferences,
      }),
    );
  const words = (texts: string[]) => texts.reduce((sum, t) => sum + t.split(/\s+/).length, 0) / texts.length;

  it('formal language has no contractions and measured diction', () => {
    for (const text of many(prefs({ languageStyle: 'formal', contentRating: 'mature' }))) {
      expect(text.replace(/"[^"]*"/g, '')).not.toMatch(/n't|'re\b|'ll\b|'ve\b|'m\b|'d\b|\b(it|that|there)'s\b|'tis/i);
    }
  });

  it('archaic language speaks with ere, tis and yonder in the narration', () => {
    for (const text of many(prefs({ languageStyle: 'archaic' }))) expect(text).toMatch(ARCHAIC);
    for (const text of many(prefs({}))) expect(text).not.toMatch(ARCHAIC);
  });

  it('concise is shorter than descriptive, and dramatic raises its voice', () => {
    expect(words(many(prefs({ narrativeStyle: 'concise' })))).toBeLessThan(
      words(many(prefs({ narrativeStyle: 'descriptive' }))) * 0.8,
    );
    for (const text of many(prefs({ narrativeStyle: 'dramatic' }))) {
      expect(text.match(/!/g)?.length ?? 0).toBeGreaterThanOrEqual(2);
    }
  });

  it('the general rating prints no gore; teen adds peril and mature goes darker', () => {
    for (const style of ['descriptive', 'concise', 'dramatic'] as const) {
      for (const text of many(prefs({ narrativeStyle: style }), 200)) expect(text).not.toMatch(GORE_WORDS);
    }
    const teen = many(prefs({ contentRating: 'teen' }), 20);
    expect(teen.every((text) => GENRES.some((g) => VOICES[g].peril.some((line) => text.includes(line))))).toBe(true);
    const mature = many(prefs({ contentRating: 'mature' }), 40);
    expect(mature.some((text) => GORE_WORDS.test(text))).toBe(true);
  });
});

describe('continuity', () => {
  const premise = 'A haunted lighthouse on a cursed island';
  const story: string[] = [
    'look around',
    'I climb the stairs',
    'I pick up the brass key',
    'I open the door',
    'wait',
    'I listen',
  ];

  it('brings back a thing the player picked up within the next few turns', () => {
    const recentBefore = (turn: number): TurnRecord[] =>
      story.slice(0, turn - 1).flatMap((content) => [
        { role: 'user' as const, content },
        { role: 'assistant' as const, content: 'The narrator answered.' },
      ]);
    // "I pick up the brass key" is turn 3; turns 4-6 follow it.
    const later = [4, 5, 6].map((turn) =>
      reply({ storyId: 41, turn, attempt: 0, premise, action: story[turn - 1], recent: recentBefore(turn) }),
    );
    expect(later.some((text) => /the brass key/i.test(text))).toBe(true);
  });

  it('keeps names from earlier actions and places from the premise coming back', () => {
    const recent: TurnRecord[] = [{ role: 'user', content: 'I greet Mara at the gate' }];
    const texts = [4, 5, 6].map((turn) => reply({ storyId: 42, turn, attempt: 0, premise, action: 'wait', recent }));
    expect(texts.some((text) => text.includes('Mara'))).toBe(true);
    const lone = [4, 5, 6].map((turn) => reply({ storyId: 42, turn, attempt: 0, premise, action: 'wait' }));
    expect(lone.some((text) => /the (haunted )?lighthouse/.test(text))).toBe(true);
  });
});
