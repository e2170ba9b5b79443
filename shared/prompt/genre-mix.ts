// Story prompt composition, shared by the start screen (which sends the prompt)
// and the server (whose offline narrator reads the genre mix back out of a premise).
import { GENRES, type Genre } from '../constants';

/** Percentages 0-100 per genre; genres left out count as 0. */
export type GenreMix = Partial<Record<Genre, number>>;

export const GENRE_MIX_LEAD = 'Mix in the following genre preferences:';
export const RANDOM_PROMPT_LEAD = 'Create a story that combines';
export const RANDOM_PROMPT_MIXED = 'Create a story mixing different genres.';
export const RANDOM_PROMPT_TWIST = 'Surprise me with an unexpected twist!';

export interface GenreShare {
  genre: Genre;
  percent: number;
}

/** The non-zero genres, largest share first (ties keep the spec's genre order). */
export function genreShares(mix: GenreMix): GenreShare[] {
  return GENRES.map((genre) => ({ genre, percent: Math.round(mix[genre] ?? 0) }))
    .filter((entry) => entry.percent > 0)
    .sort((a, b) => b.percent - a.percent);
}

function shareList(shares: GenreShare[]): string {
  return shares.map((s) => `${s.percent}% ${s.genre}`).join(', ');
}

/** "Mix in the following genre preferences: 40% fantasy, 30% horror." or '' when every share is 0. */
export function genreMixSentence(mix: GenreMix): string {
  const shares = genreShares(mix);
  return shares.length === 0 ? '' : `${GENRE_MIX_LEAD} ${shareList(shares)}.`;
}

/** The prompt sent for a typed or preset scenario: the scenario, then the mix sentence when the mix is active. */
export function composeStoryPrompt(scenario: string, mix: GenreMix | null): string {
  const base = scenario.trim();
  const sentence = mix ? genreMixSentence(mix) : '';
  return sentence ? `${base}\n\n${sentence}` : base;
}

/** The random-story prompt: the active mix's shares, or "mixing different genres", then the twist. */
export function composeRandomPrompt(mix: GenreMix | null): string {
  const shares = mix ? genreShares(mix) : [];
  const lead = shares.length > 0 ? `${RANDOM_PROMPT_LEAD} ${shareList(shares)}.` : RANDOM_PROMPT_MIXED;
  return `${lead} ${RANDOM_PROMPT_TWIST}`;
}

/**
 * The player's own scenario in a composed prompt: without the genre mix sentence and the random
 * prompt's lead and twist (what titles, the genre's words and the offline narrator read).
 */
export function scenarioOf(prompt: string): string {
  return prompt
    .split(GENRE_MIX_LEAD)[0]
    .replace(RANDOM_PROMPT_MIXED, ' ')
    .replace(RANDOM_PROMPT_TWIST, ' ')
    .replace(new RegExp(`${RANDOM_PROMPT_LEAD}[^.]*\\.`), ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Reads "N% genre" entries back out of a composed prompt (the offline narrator picks its genre from them). */
export function parseGenreShares(prompt: string): GenreShare[] {
  const found = new Map<Genre, number>();
  for (const match of prompt.matchAll(/(\d{1,3})%\s+([a-z]+)/gi)) {
    const genre = match[2].toLowerCase() as Genre;
    if ((GENRES as readonly string[]).includes(genre) && !found.has(genre)) found.set(genre, Number(match[1]));
  }
  return genreShares(Object.fromEntries(found));
}
