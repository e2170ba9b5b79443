// The one genre decision for a premise: the composed prompt's genre mix when it has one, else the
// weighted cues of lexicon.ts, else the default. The narrator, titles, the style sheet and the art
// style all ask this, so a story is never written as one genre and painted as another.
import { GENRES, STORY_PREMISE_MAX_LENGTH, type Genre } from '@shared/constants';
import { RANDOM_PROMPT_MIXED, parseGenreShares, scenarioOf } from '@shared/prompt/genre-mix';
import {
  FUTURE_YEAR_FROM,
  GENRE_CUES,
  MAGIC_CUES,
  NOT_CUES,
  PAST_YEAR_BEFORE,
  YEAR_WEIGHT,
  type CueTiers,
} from './lexicon';

export interface GenreWeight {
  genre: Genre;
  weight: number;
}

/** Weights sum to 1, largest first; `genre` is the first of them. */
export interface GenreReading {
  genre: Genre;
  weights: GenreWeight[];
  source: 'mix' | 'words' | 'default';
}

/** No premise is longer (the story schemas cap it), so reading further would only let a bad caller stall us. */
export const GENRE_READ_LIMIT = STORY_PREMISE_MAX_LENGTH;

/**
 * A premise with no cue at all. Fantasy: both earlier guessers fell back to it, the first preset is a
 * fantasy quest, and an unmarked "a stranger arrives at the gate" reads most naturally as one.
 */
export const DEFAULT_GENRE: Genre = 'fantasy';

interface Cue {
  id: number;
  genre: Genre | null;
  weight: number;
  magic: boolean;
}

/** Lower case, curly quotes straightened, possessive 's and other apostrophes dropped, split on the rest. */
function tokenise(text: string): string[] {
  return (
    text
      .toLowerCase()
      .replace(/[’‘]/g, "'")
      .replace(/'s\b/g, '')
      .replace(/'/g, '')
      .match(/[a-z0-9]+/g) ?? []
  );
}

const FUNCTION_WORDS = new Set(['a', 'an', 'the', 'of', 'in', 'on', 'to', 'for', 'at', 'my', 'me', 'i', 'that']);

/** The word and its regular plural, past and -ing forms; over-generating harmless non-words is fine. */
function inflections(word: string): string[] {
  if (FUNCTION_WORDS.has(word) || /\d/.test(word)) return [word];
  const forms = new Set([word, `${word}s`, `${word}es`, `${word}ed`, `${word}ing`]);
  if (/[^aeiou]y$/.test(word)) ['ies', 'ied'].forEach((end) => forms.add(word.slice(0, -1) + end));
  if (word.endsWith('e')) [`${word}d`, `${word.slice(0, -1)}ing`].forEach((form) => forms.add(form));
  if (word.endsWith('f')) forms.add(`${word.slice(0, -1)}ves`);
  if (word.endsWith('fe')) forms.add(`${word.slice(0, -2)}ves`);
  if (/[^aeiou][aeiou][^aeiouwxy]$/.test(word)) ['ed', 'ing'].forEach((end) => forms.add(word + word.at(-1) + end));
  return [...forms];
}

function expandPhrase(words: string[]): string[] {
  return words.reduce<string[]>(
    (keys, word) => keys.flatMap((key) => inflections(word).map((form) => (key ? `${key} ${form}` : form))),
    [''],
  );
}

interface CueIndex {
  phrases: Map<string, Cue[]>;
  stems: Map<string, Cue[]>;
  longestPhrase: number;
  longestStem: number;
}

function splitCues(list: string): string[] {
  return list
    .split(',')
    .map((cue) => cue.trim())
    .filter(Boolean);
}

function buildIndex(): CueIndex {
  const index: CueIndex = { phrases: new Map(), stems: new Map(), longestPhrase: 1, longestStem: 0 };
  let nextId = 0;
  const add = (table: Map<string, Cue[]>, key: string, cue: Cue) => table.set(key, [...(table.get(key) ?? []), cue]);
  const magic = new Set(splitCues(MAGIC_CUES));
  const addCue = (text: string, genre: Genre | null, weight: number) => {
    const cue: Cue = { id: nextId++, genre, weight, magic: genre === 'fantasy' && magic.has(text) };
    if (text.endsWith('*')) {
      const stem = text.slice(0, -1);
      add(index.stems, stem, cue);
      index.longestStem = Math.max(index.longestStem, stem.length);
      return;
    }
    const words = tokenise(text);
    index.longestPhrase = Math.max(index.longestPhrase, words.length);
    for (const key of expandPhrase(words)) add(index.phrases, key, cue);
  };
  for (const genre of GENRES) {
    for (const [weight, list] of Object.entries(GENRE_CUES[genre] as CueTiers)) {
      for (const text of splitCues(list)) addCue(text, genre, Number(weight));
    }
  }
  for (const text of splitCues(NOT_CUES)) addCue(text, null, 0);
  return index;
}

const INDEX = buildIndex();
const PAST_YEAR: Cue = { id: -1, genre: 'historical', weight: YEAR_WEIGHT, magic: false };
const FUTURE_YEAR: Cue = { id: -2, genre: 'scifi', weight: YEAR_WEIGHT, magic: false };

interface Match {
  cues: Cue[];
  length: number;
}

function phraseAt(tokens: string[], at: number): Match | null {
  for (let length = Math.min(INDEX.longestPhrase, tokens.length - at); length > 0; length -= 1) {
    const cues = INDEX.phrases.get(length === 1 ? tokens[at] : tokens.slice(at, at + length).join(' '));
    if (cues) return { cues, length };
  }
  return null;
}

/** Cues at token `at`, longest phrase first, and how many tokens they cover. */
function cuesAt(tokens: string[], at: number): Match {
  const phrase = phraseAt(tokens, at);
  if (phrase) {
    // "the dead zone": a phrase starting inside this one and reaching further wins the overlap.
    for (let inner = at + 1; inner < at + phrase.length; inner += 1) {
      const longer = phraseAt(tokens, inner);
      if (longer && inner + longer.length > at + phrase.length) return { cues: [], length: inner - at };
    }
    return phrase;
  }
  const token = tokens[at];
  for (let length = Math.min(INDEX.longestStem, token.length); length >= 2; length -= 1) {
    const cues = INDEX.stems.get(token.slice(0, length));
    if (cues) return { cues, length: 1 };
  }
  return { cues: timeCues(tokens, at), length: 1 };
}

/** A year ("1815", "the 1920s") or a century ("12th century", "23rd century") before or after our time. */
function timeCues(tokens: string[], at: number): Cue[] {
  const token = tokens[at];
  const century = /^(\d{1,2})(st|nd|rd|th)$/.exec(token);
  if (century && tokens[at + 1] === 'century') {
    const startYear = (Number(century[1]) - 1) * 100;
    return startYear < PAST_YEAR_BEFORE ? [PAST_YEAR] : startYear >= FUTURE_YEAR_FROM ? [FUTURE_YEAR] : [];
  }
  if (!/^\d{4}s?$/.test(token)) return [];
  const year = Number(token.slice(0, 4));
  if (year >= 1000 && year < PAST_YEAR_BEFORE) return [PAST_YEAR];
  return year >= FUTURE_YEAR_FROM ? [FUTURE_YEAR] : [];
}

interface GenreScore {
  score: number;
  /** The heaviest single cue: on equal scores one word that names a genre beats several that lean. */
  strongest: number;
  firstAt: number;
}

/** Each distinct cue counts once: saying "ghost" five times is not five times the horror. */
function scoreWords(text: string): Map<Genre, GenreScore> {
  const tokens = tokenise(text);
  const seen = new Set<number>();
  const scores = new Map<Genre, GenreScore>();
  let sawMagic = false;
  for (let at = 0; at < tokens.length;) {
    const { cues, length } = cuesAt(tokens, at);
    for (const cue of cues) {
      if (!cue.genre || seen.has(cue.id)) continue;
      seen.add(cue.id);
      sawMagic ||= cue.magic;
      const entry = scores.get(cue.genre) ?? { score: 0, strongest: 0, firstAt: at };
      entry.score += cue.weight;
      entry.strongest = Math.max(entry.strongest, cue.weight);
      scores.set(cue.genre, entry);
    }
    at += length;
  }
  const historical = scores.get('historical');
  const fantasy = scores.get('fantasy');
  if (sawMagic && historical && fantasy) {
    // Historical has no magic: the period cues dress the fantasy instead of competing with it.
    fantasy.score += historical.score;
    fantasy.firstAt = Math.min(fantasy.firstAt, historical.firstAt);
    scores.delete('historical');
  }
  return scores;
}

function reading(weights: GenreWeight[], source: GenreReading['source']): GenreReading {
  return { genre: weights[0].genre, weights, source };
}

export function classifyGenre(premise: string): GenreReading {
  const text = premise.slice(0, GENRE_READ_LIMIT);
  const shares = parseGenreShares(text);
  if (shares.length > 0) {
    const total = shares.reduce((sum, share) => sum + share.percent, 0);
    return reading(
      shares.map((share) => ({ genre: share.genre, weight: share.percent / total })),
      'mix',
    );
  }
  const scores = scoreWords(scenarioOf(text));
  if (scores.size > 0) {
    const total = [...scores.values()].reduce((sum, entry) => sum + entry.score, 0);
    const ranked = GENRES.filter((genre) => scores.has(genre)).sort((a, b) => {
      const [left, right] = [scores.get(a)!, scores.get(b)!];
      return right.score - left.score || right.strongest - left.strongest || left.firstAt - right.firstAt;
    });
    return reading(
      ranked.map((genre) => ({ genre, weight: scores.get(genre)!.score / total })),
      'words',
    );
  }
  // "Mixing different genres" names none: an even mix of all ten, led by the default in spec order.
  if (text.includes(RANDOM_PROMPT_MIXED)) {
    const even = GENRES.map((genre) => ({ genre, weight: 1 / GENRES.length }));
    return reading(
      [...even.filter((w) => w.genre === DEFAULT_GENRE), ...even.filter((w) => w.genre !== DEFAULT_GENRE)],
      'mix',
    );
  }
  return reading([{ genre: DEFAULT_GENRE, weight: 1 }], 'default');
}
