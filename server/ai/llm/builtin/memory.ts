// The builtin narrator's summaries and titles, made without a model. Summaries are extractive:
// they keep the sentences that carry names (so people and places survive a long story) and the
// player's own actions, newest ones first when space runs short, within a token cap.
import { STORY_TITLE_MAX_LENGTH } from '@shared/constants';
import { GENRE_MIX_LEAD, RANDOM_PROMPT_LEAD, RANDOM_PROMPT_MIXED, RANDOM_PROMPT_TWIST } from '@shared/prompt/genre-mix';
import type { TurnRecord } from '../types';
import { capitalise, detectGenre, namesIn, parseAction, splitSentences } from './text';
import { VOCABULARY } from './vocabulary';

interface Candidate {
  order: number;
  sentence: string;
  names: string[];
  isAction: boolean;
}

export function summarizeExtractive(
  memory: string,
  turns: TurnRecord[],
  maxTokens: number,
  countTokens: (text: string) => number,
): string {
  const candidates: Candidate[] = [];
  const seen = new Set<string>();
  const add = (sentence: string, isAction: boolean) => {
    const key = sentence.toLowerCase();
    if (seen.has(key)) return;
    seen.add(key);
    candidates.push({ order: candidates.length, sentence, names: namesIn(sentence), isAction });
  };
  for (const sentence of splitSentences(memory)) add(sentence, sentence.startsWith('You '));
  for (const turn of turns) {
    if (turn.role === 'user') {
      const clause = parseAction(turn.content).clause;
      add(/[.!?"”]$/.test(clause) ? capitalise(clause) : `${capitalise(clause)}.`, true);
    } else {
      for (const sentence of splitSentences(turn.content)) if (namesIn(sentence).length > 0) add(sentence, false);
    }
  }

  // Greedy cover: first every sentence that brings a name not kept yet (oldest first, so the
  // earliest facts win), then the player's actions, newest first.
  const kept = new Set<Candidate>();
  const coveredNames = new Set<string>();
  let used = 0;
  const tryKeep = (c: Candidate) => {
    const cost = countTokens(c.sentence) + 1;
    if (used + cost > maxTokens) return;
    kept.add(c);
    used += cost;
    for (const name of c.names) coveredNames.add(name);
  };
  for (const c of candidates) if (c.names.some((n) => !coveredNames.has(n))) tryKeep(c);
  for (const c of [...candidates].reverse()) if (c.isAction && !kept.has(c)) tryKeep(c);
  return candidates
    .filter((c) => kept.has(c))
    .map((c) => c.sentence)
    .join(' ');
}

/** Strips the composed-prompt boilerplate (genre mix, random prompt) from a premise. */
function premiseCore(premise: string): string {
  return premise
    .split(GENRE_MIX_LEAD)[0]
    .replace(RANDOM_PROMPT_MIXED, '')
    .replace(RANDOM_PROMPT_TWIST, '')
    .replace(new RegExp(`${RANDOM_PROMPT_LEAD}[^.]*\\.`), '')
    .trim();
}

const SMALL_WORDS = new Set(['a', 'an', 'the', 'of', 'and', 'in', 'on', 'at', 'to', 'for', 'with', 'by', 'from']);

function titleCase(words: string[]): string {
  return words.map((w, i) => (i > 0 && SMALL_WORDS.has(w.toLowerCase()) ? w.toLowerCase() : capitalise(w))).join(' ');
}

/** Cuts at a word boundary so the title fits STORY_TITLE_MAX_LENGTH. */
export function clampTitle(title: string): string {
  const clean = title.replace(/\s+/g, ' ').trim();
  if (clean.length <= STORY_TITLE_MAX_LENGTH) return clean;
  const cut = clean.slice(0, STORY_TITLE_MAX_LENGTH + 1);
  const space = cut.lastIndexOf(' ');
  return (space > 10 ? cut.slice(0, space) : clean.slice(0, STORY_TITLE_MAX_LENGTH)).replace(/[\s,;:.-]+$/, '');
}

/** A title from the premise's own first words, or from its genre when it is only a random prompt. */
export function fallbackTitle(premise: string): string {
  const core = premiseCore(premise);
  const firstSentence = splitSentences(core)[0]?.replace(/[.!?"”]+$/, '') ?? '';
  const words = firstSentence
    .replace(/^(i am|i'm|you are|you're|a story about|tell me a story about|write a story about)\s+/i, '')
    .split(/\s+/)
    .filter(Boolean);
  const picked = words.slice(0, 7);
  // "…Knocking from the" reads unfinished: end on a content word.
  while (picked.length > 2 && SMALL_WORDS.has(picked[picked.length - 1].toLowerCase())) picked.pop();
  if (words.length >= 2) return clampTitle(titleCase(picked));
  const nouns = VOCABULARY[detectGenre(premise)].titleNouns;
  const pick = premise.length % nouns.length;
  return `The ${nouns[pick]} and the ${nouns[(pick + 1) % nouns.length]}`;
}
