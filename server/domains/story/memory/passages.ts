// A message cut into passages, the memory bank's unit of retrieval: whole sentences gathered up to
// about PASSAGE_WORDS words, so that a recalled detail costs its paragraph, not its whole reply,
// and several fit the memory budget. A sentence longer than a passage is cut at word boundaries.
import { slicesOf } from '@server/kernel/words';
import { termCounts, termsOf } from './terms';

export const PASSAGE_WORDS = 60;
/** A message yields at most this many passages (a 8,000-word reply, far past any model's output). */
export const MAX_PASSAGES_PER_MESSAGE = 200;

export interface Passage {
  /** Its place in the message, from 0. */
  part: number;
  text: string;
  /** Its distinct terms and how often each occurs, in the same order. */
  terms: string[];
  counts: number[];
  /** Its terms counted with repeats (BM25's document length). */
  length: number;
}

const sentences = new Intl.Segmenter('en', { granularity: 'sentence' });
/** Sentences are found a slice at a time, as words are (terms.ts): a sentence cut by a slice's edge becomes two. */
const SENTENCE_SLICE_CHARS = 4000;
const wordCount = (text: string) => text.split(/\s+/).filter(Boolean).length;

/** Pieces of at most PASSAGE_WORDS words: the sentence itself, or its words in runs. */
function sentencePieces(sentence: string): string[] {
  const words = sentence.split(/\s+/).filter(Boolean);
  if (words.length <= PASSAGE_WORDS * 1.5) return [sentence.trim()];
  const pieces: string[] = [];
  for (let i = 0; i < words.length; i += PASSAGE_WORDS) pieces.push(words.slice(i, i + PASSAGE_WORDS).join(' '));
  return pieces;
}

/** The passages of a message's text; a text with no terms (punctuation only) has none. */
export function passagesOf(text: string): Passage[] {
  const texts: string[] = [];
  let current = '';
  let words = 0;
  reading: for (const slice of slicesOf(text, SENTENCE_SLICE_CHARS))
    for (const { segment } of sentences.segment(slice)) {
      for (const piece of sentencePieces(segment)) {
        if (!piece) continue;
        const n = wordCount(piece);
        if (current && words + n > PASSAGE_WORDS) {
          texts.push(current);
          current = '';
          words = 0;
        }
        current = current ? `${current} ${piece}` : piece;
        words += n;
      }
      if (texts.length >= MAX_PASSAGES_PER_MESSAGE) break reading;
    }
  if (current && texts.length < MAX_PASSAGES_PER_MESSAGE) texts.push(current);
  const passages: Passage[] = [];
  for (const passage of texts) {
    const all = termsOf(passage);
    if (all.length === 0) continue;
    const counts = termCounts(all);
    passages.push({
      part: passages.length,
      text: passage,
      terms: [...counts.keys()],
      counts: [...counts.values()],
      length: all.length,
    });
  }
  return passages;
}
