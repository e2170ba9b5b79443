// The loop guard's detector: whether a narrator reply repeats the story's last replies
// or itself, on any backend. Three signs, each against a threshold (settings, defaults measured on
// the corpus in loop-detector.test.ts):
// - the share of the reply's word 4-grams already used in the last replies (a reply that retells
//   an earlier one);
// - an opening that repeats one of theirs (the same first words, turn after turn);
// - a cycle inside the reply: a span repeated back to back, or one sentence said again and again.
// Pure and bounded by its input: the history is the last few replies, each capped in words.
import type { LoopThresholds } from '@server/kernel/config';
import { wordsIn } from '@server/kernel/words';

export type { LoopThresholds };

/** The narrator replies a reply is measured against: the story's last ones. */
export const LOOP_HISTORY_REPLIES = 5;
/** Words read of each text: a longer reply's tail adds nothing a loop would not show before it. */
const MAX_WORDS = 2000;
/** The longest span a back-to-back cycle is looked for at. */
const MAX_CYCLE_SPAN = 60;
/** The fewest first words that make an opening, when the first sentence is shorter than the setting. */
const OPENING_MIN_WORDS = 5;
/** Where a sentence ends: after its closing mark, or at a line break. */
const SENTENCE_END = /(?<=[.!?…])\s+|\n+/;
/** A sentence counts towards a repeated-sentence cycle from this many words ("No, no." does not). */
const CYCLE_SENTENCE_MIN_WORDS = 5;

/**
 * Chosen with bench:loop on 500 transcripts of each kind (docs/benchmarks.md), every seeded loop
 * caught at each: a 4-gram share of 0.7 (0.6 flagged 1.2 % of varied replies, 0.9 missed 9 % of
 * retold ones), openings of 12 words (8 flagged 1.2 %, 12 flags 0.4 %, 16 none), 3 repeats (2
 * flagged 12 %, 4 missed the seeded triples) covering 12 words (16 missed a quarter of the cycles).
 */
export const DEFAULT_LOOP_THRESHOLDS: LoopThresholds = {
  ngramShare: 0.7,
  openingWords: 12,
  cycleRepeats: 3,
  cycleMinWords: 12,
};

export interface LoopCycle {
  /** The repeated span as said. */
  span: string;
  repeats: number;
}

export interface LoopVerdict {
  looping: boolean;
  /** Share of the reply's 4-grams found in the history (0 for a reply under four words). */
  ngramShare: number;
  /** The history reply (0 the newest) whose opening this one repeats, or null. */
  repeatedOpening: number | null;
  cycle: LoopCycle | null;
  /** What the guard asks the narrator to avoid, one line a sign found. */
  reasons: string[];
}

/** A text's first MAX_WORDS words, lower-cased, as kernel/words.ts finds them (CJK included). */
export function loopWords(text: string): string[] {
  const words: string[] = [];
  for (const word of wordsIn(text.toLowerCase())) {
    if (words.length === MAX_WORDS) break;
    words.push(word);
  }
  return words;
}

/** Word ids for the texts of one measurement: numbers compare and hash faster than strings. */
function idsOf(texts: string[][]): number[][] {
  const ids = new Map<string, number>();
  return texts.map((words) => words.map((w) => ids.get(w) ?? (ids.set(w, ids.size), ids.size - 1)));
}

/** A 4-gram as one number: four ids of 13 bits (52 bits, exact in a double); a string past 8,192 words. */
const ID_BITS = 8192;
const gramKey = (ids: number[], i: number): number | string =>
  ids[i] < ID_BITS && ids[i + 1] < ID_BITS && ids[i + 2] < ID_BITS && ids[i + 3] < ID_BITS
    ? ((ids[i] * ID_BITS + ids[i + 1]) * ID_BITS + ids[i + 2]) * ID_BITS + ids[i + 3]
    : `${ids[i]} ${ids[i + 1]} ${ids[i + 2]} ${ids[i + 3]}`;

/** The share of the reply's 4-grams (by position) that the history used already. */
function usedShare(reply: number[], history: number[][]): number {
  if (reply.length < 4) return 0;
  const used = new Set<number | string>();
  for (const ids of history) for (let i = 0; i + 4 <= ids.length; i += 1) used.add(gramKey(ids, i));
  let found = 0;
  for (let i = 0; i + 4 <= reply.length; i += 1) if (used.has(gramKey(reply, i))) found += 1;
  return found / (reply.length - 3);
}

function sameStart(a: number[], b: number[], count: number): boolean {
  if (a.length < count || b.length < count) return false;
  for (let i = 0; i < count; i += 1) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * The longest run of one span said `repeats` times or more back to back ("let let let …", a phrase
 * or a sentence over and over), as spans of up to MAX_CYCLE_SPAN words.
 */
function backToBack(
  seq: number[],
  repeats: number,
  minWords: number,
): { start: number; span: number; repeats: number } | null {
  let best: { start: number; span: number; repeats: number } | null = null;
  for (let span = 1; span <= MAX_CYCLE_SPAN && span * repeats <= seq.length; span += 1) {
    // A run of equal pairs seq[i] === seq[i + span] from i0 to i is a region from i0 to i + span
    // holding the span floor(run / span) + 1 times.
    let run = 0;
    for (let i = 0; i + span < seq.length; i += 1) {
      run = seq[i] === seq[i + span] ? run + 1 : 0;
      const times = Math.floor(run / span) + 1;
      if (times >= repeats && span * times >= minWords && (!best || span * times > best.span * best.repeats))
        best = { start: i - run + 1, span, repeats: times };
    }
  }
  return best;
}

/** A sentence (of CYCLE_SENTENCE_MIN_WORDS or more) said `repeats` times or more anywhere in the reply. */
function repeatedSentence(reply: string, repeats: number, minWords: number): LoopCycle | null {
  const counts = new Map<string, { said: string; times: number }>();
  for (const sentence of reply.split(SENTENCE_END)) {
    const words = loopWords(sentence);
    if (words.length < CYCLE_SENTENCE_MIN_WORDS) continue;
    const key = words.join(' ');
    const seen = counts.get(key) ?? { said: sentence.trim(), times: 0 };
    seen.times += 1;
    counts.set(key, seen);
  }
  let best: LoopCycle | null = null;
  for (const [key, { said, times }] of counts) {
    const words = key.split(' ').length;
    if (times >= repeats && words * times >= minWords && (!best || times > best.repeats))
      best = { span: said, repeats: times };
  }
  return best;
}

const quoteOf = (text: string, words = 12) => {
  const shown = text.trim().split(/\s+/).slice(0, words).join(' ');
  return shown.length < text.trim().length ? `${shown}…` : shown;
};

/**
 * Whether `reply` loops, measured against `history` (the story's last narrator replies, newest
 * first; only the first LOOP_HISTORY_REPLIES count).
 */
export function detectLoop(
  reply: string,
  history: readonly string[],
  thresholds: LoopThresholds = DEFAULT_LOOP_THRESHOLDS,
): LoopVerdict {
  const words = loopWords(reply);
  const earlier = history.slice(0, LOOP_HISTORY_REPLIES);
  const [ids, ...earlierIds] = idsOf([words, ...earlier.map(loopWords)]);
  const ngramShare = usedShare(ids, earlierIds);
  // A short first sentence ("The door creaks as you pass.") is an opening of its own length.
  const openingLength = Math.max(
    OPENING_MIN_WORDS,
    Math.min(thresholds.openingWords, loopWords(reply.split(SENTENCE_END, 1)[0]).length),
  );
  const opening = earlierIds.findIndex((h) => sameStart(ids, h, openingLength));
  const run = backToBack(ids, thresholds.cycleRepeats, thresholds.cycleMinWords);
  const cycle: LoopCycle | null = run
    ? { span: words.slice(run.start, run.start + run.span).join(' '), repeats: run.repeats }
    : repeatedSentence(reply, thresholds.cycleRepeats, thresholds.cycleMinWords);

  const reasons: string[] = [];
  if (ngramShare >= thresholds.ngramShare)
    reasons.push(
      `It retold the earlier replies: ${Math.round(ngramShare * 100)}% of its phrases were already used. Tell what happens next in new words.`,
    );
  if (opening !== -1)
    reasons.push(
      `It opened like an earlier reply ("${quoteOf(earlier[opening], openingLength + 2)}"). Open differently.`,
    );
  if (cycle) reasons.push(`It repeated "${quoteOf(cycle.span)}" ${cycle.repeats} times. Say it once.`);
  return { looping: reasons.length > 0, ngramShare, repeatedOpening: opening === -1 ? null : opening, cycle, reasons };
}

/** How badly a verdict loops, to keep the better of two replies: fewer signs, then fewer phrases used. */
export function loopSeverity(verdict: LoopVerdict): number {
  return verdict.reasons.length + verdict.ngramShare;
}
