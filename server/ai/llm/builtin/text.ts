// Small text helpers for the offline narrator: turning a player's action into second person,
// finding its verb and object, picking a premise's genre, and sentence splitting.
import { GENRES, type Genre } from '@shared/constants';
import { parseGenreShares } from '@shared/prompt/genre-mix';
import { VOCABULARY } from './vocabulary';

const PRONOUNS: Array<[RegExp, string]> = [
  [/\bI am\b/g, 'you are'],
  [/\bI'm\b/g, "you're"],
  [/\bI've\b/g, "you've"],
  [/\bI'll\b/g, "you'll"],
  [/\bI'd\b/g, "you'd"],
  [/\bI was\b/g, 'you were'],
  [/\bI\b/g, 'you'],
  [/\bmyself\b/gi, 'yourself'],
  [/\bmine\b/gi, 'yours'],
  [/\bmy\b/gi, 'your'],
  [/\bme\b/gi, 'you'],
  [/\bwe\b/gi, 'you'],
  [/\bour\b/gi, 'your'],
  [/\bus\b/g, 'you'],
];

const MAX_ACTION_WORDS = 24;

export interface ParsedAction {
  /** "you open the door" style clause (lower-case start, no final punctuation). */
  clause: string;
  verb: string;
  /** The thing acted on ("the rusty door"), or '' for actions without one ("wait"). */
  object: string;
  /** Spoken words when the action is speech. */
  speech: string | null;
}

const DETERMINERS = new Set([
  'the',
  'a',
  'an',
  'your',
  'his',
  'her',
  'their',
  'its',
  'this',
  'that',
  'these',
  'those',
  'some',
  'every',
]);
const STOP = new Set([
  'and',
  'then',
  'but',
  'while',
  'to',
  'so',
  'because',
  'before',
  'after',
  'with',
  'as',
  'if',
  'when',
]);

/** The player's first sentence as a second-person clause, at most 24 words. */
export function parseAction(raw: string): ParsedAction {
  const trimmed = raw.trim().replace(/\s+/g, ' ');
  const quoted = /^["“](.+?)["”]/.exec(trimmed);
  if (quoted) {
    const speech = quoted[1].trim();
    return { clause: `you say, "${speech}"`, verb: 'speak', object: '', speech };
  }
  const firstSentence = (/^(.+?[.!?])(\s|$)/.exec(trimmed)?.[1] ?? trimmed).replace(/[.!?]+$/, '');
  let clause = firstSentence;
  for (const [pattern, replacement] of PRONOUNS) clause = clause.replace(pattern, replacement);
  clause = clause.replace(/^you\s+/i, '');
  const words = clause.split(' ').slice(0, MAX_ACTION_WORDS);
  if (words.length > 0 && !/^[A-Z]{2,}$/.test(words[0])) words[0] = words[0].toLowerCase();
  // "carefully open the door": the verb is the word after a leading adverb.
  const verbAt = words.length > 1 && /ly$/i.test(words[0]) ? 1 : 0;
  const verb = (words[verbAt] ?? 'wait').replace(/[^a-z'-]/gi, '').toLowerCase() || 'wait';
  return { clause: `you ${words.join(' ')}`.trim(), verb, object: findObject(words.slice(verbAt + 1)), speech: null };
}

function findObject(rest: string[]): string {
  const start = rest.findIndex((w) => DETERMINERS.has(w.toLowerCase()));
  const from =
    start >= 0
      ? start
      : rest.findIndex(
          (w) =>
            !STOP.has(w.toLowerCase()) &&
            !/^(at|on|in|into|onto|up|down|around|through|over|under|toward|towards|for|from|of|off|out|back|away)$/i.test(
              w,
            ),
        );
  if (from < 0) return '';
  const phrase: string[] = [];
  for (const word of rest.slice(from)) {
    if (phrase.length > 0 && (STOP.has(word.toLowerCase()) || phrase.length >= 5)) break;
    phrase.push(word.replace(/[,;:]+$/, ''));
    if (/[,;:]$/.test(word)) break;
  }
  const object = phrase.join(' ');
  if (start < 0 && !/^[A-Z]/.test(object)) return `the ${object}`;
  return object;
}

/** The genre the premise asks for: the largest share of its genre mix, else its keywords, else fantasy. */
export function detectGenre(premise: string): Genre {
  const shares = parseGenreShares(premise);
  if (shares.length > 0) return shares[0].genre;
  const lower = premise.toLowerCase();
  let best: Genre = 'fantasy';
  let bestScore = 0;
  for (const genre of GENRES) {
    const score = VOCABULARY[genre].keywords.filter((k) => lower.includes(k)).length;
    if (score > bestScore) {
      best = genre;
      bestScore = score;
    }
  }
  return best;
}

export function splitSentences(text: string): string[] {
  return (text.match(/[^.!?]+[.!?]+["”']?|[^.!?]+$/g) ?? []).map((s) => s.trim()).filter(Boolean);
}

/** Capitalised words that are not the first word of their sentence: a cheap detector of names. */
export function namesIn(sentence: string): string[] {
  const words = sentence.split(/\s+/).slice(1);
  return words.map((w) => w.replace(/[^A-Za-z'-]/g, '')).filter((w) => /^[A-Z][a-z]{1,}/.test(w) && w !== 'I');
}

export function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function wordCount(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}
