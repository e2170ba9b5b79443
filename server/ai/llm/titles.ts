// Story titles without a model: a model's title clamped to the spec's length, and the fallback
// every story shows until it has one (the premise's first words, or two nouns of its genre). The
// builtin narrator titles with it, and the story services show it for an untitled story.
import { STORY_TITLE_MAX_LENGTH } from '@shared/constants';
import { scenarioOf } from '@shared/prompt/genre-mix';
import { classifyGenre } from '@server/ai/genre';
import { capitalise, splitSentences } from './builtin/text';
import { VOICES } from './builtin/voices';

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
  const core = scenarioOf(premise);
  const firstSentence = splitSentences(core)[0]?.replace(/[.!?"”]+$/, '') ?? '';
  const words = firstSentence
    .replace(/^(i am|i'm|you are|you're|a story about|tell me a story about|write a story about)\s+/i, '')
    .split(/\s+/)
    .filter(Boolean);
  const picked = words.slice(0, 7);
  // "…Knocking from the" reads unfinished: end on a content word.
  while (picked.length > 2 && SMALL_WORDS.has(picked[picked.length - 1].toLowerCase())) picked.pop();
  if (words.length >= 2) return clampTitle(titleCase(picked));
  const nouns = VOICES[classifyGenre(premise).genre].titleNouns;
  const pick = premise.length % nouns.length;
  return `The ${nouns[pick]} and the ${nouns[(pick + 1) % nouns.length]}`;
}
