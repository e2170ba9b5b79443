// The terms a text is indexed and searched by: its words as Unicode's word boundaries (UAX #29) find
// them in any script (CJK included, where words have no spaces), case- and width-folded, English stop
// words left out, Latin-script words stemmed (Porter, the `stemmer` package) so that "horses" finds
// "horse". The same function serves the index and the query, so both sides always agree. The words
// themselves come from kernel/words.ts, which the loop guard's detector reads by too.
import { stemmer } from 'stemmer';
import { eng } from 'stopword';
import { slicesOf, wordSegments } from '@server/kernel/words';

/** A word longer than this is noise (a URL, a run of letters) and is not a term. */
const MAX_TERM_CHARS = 40;
/** stopword's English list, with what players type that it lacks: replies ("yes", "ok") and contractions' pieces. */
const STOP_WORDS = new Set<string>([
  ...eng,
  ...['she', 'yes', 'ok', 'okay', 'sure', 'will', 'let', 'us', 'go'],
  ...['ll', 're', 've', 'don', 'isn', 'didn', 'doesn', 'won', 'can'],
]);
const LATIN = /^[\p{Script=Latin}]+$/u;
/** Latin words and their Porter stems, remembered: a story's prose repeats its words, and stemming is the costlier half. */
const stems = new Map<string, string>();
const STEMS_REMEMBERED = 50_000;

function stemOf(word: string): string {
  let stem = stems.get(word);
  if (stem === undefined) {
    if (stems.size >= STEMS_REMEMBERED) stems.clear();
    stem = stemmer(word);
    stems.set(word, stem);
  }
  return stem;
}

/** The words of `text` that are terms, in order, repeats kept: each as written (lower-cased) and as its term. */
export function wordsOf(text: string): Array<{ word: string; term: string }> {
  const words: Array<{ word: string; term: string }> = [];
  for (const slice of slicesOf(text.normalize('NFKC').toLowerCase()))
    for (const segment of wordSegments(slice)) {
      if (segment.length > MAX_TERM_CHARS) continue;
      // "horse's" is the horse: the possessive goes before the stop-word check and the stemmer.
      const word = segment.replace(/['’]s$/u, '').replace(/['’]/gu, '');
      if (!word || STOP_WORDS.has(word) || (word.length === 1 && LATIN.test(word))) continue;
      words.push({ word, term: LATIN.test(word) ? stemOf(word) : word });
    }
  return words;
}

/** The terms of `text`, in order, repeats kept (a passage's term frequencies come from them). */
export function termsOf(text: string): string[] {
  return wordsOf(text).map((w) => w.term);
}

/** Each distinct term of `terms` with how often it occurs, in first-seen order. */
export function termCounts(terms: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
  return counts;
}
