// Splits narration into sentences, the unit it is spoken in ("Text is spoken
// sentence by sentence"), with the platform's own Unicode sentence segmenter (Intl.Segmenter, in
// every current browser and in Node) rather than a hand-made regular expression; the regex is only
// a fallback for an engine without it. The browser and the server split alike, so a reply's part N
// is the same sentence on both sides. The stream splitter speaks a reply while it is written: a
// sentence is complete once the text after it has started.
const SENTENCE_END = /(?<=[.!?…]["'”’)\]]*)\s+/u;
/** A piece with no letter or digit ("…", "—") is not worth an utterance: it joins the sentence before. */
const SPEAKABLE = /[\p{L}\p{N}]/u;

function segmentsOf(text: string): string[] {
  if (typeof Intl !== 'undefined' && 'Segmenter' in Intl) {
    const segmenter = new Intl.Segmenter('en', { granularity: 'sentence' });
    return Array.from(segmenter.segment(text), (s) => s.segment);
  }
  return text.split(SENTENCE_END);
}

function tidy(pieces: string[]): string[] {
  const sentences: string[] = [];
  for (const raw of pieces) {
    const piece = raw.replace(/\s+/g, ' ').trim();
    if (piece === '') continue;
    if (!SPEAKABLE.test(piece) && sentences.length > 0) sentences[sentences.length - 1] += ` ${piece}`;
    else sentences.push(piece);
  }
  return sentences;
}

/** The sentences of a whole text, whitespace collapsed, empty pieces dropped. */
export function splitSentences(text: string): string[] {
  return tidy(segmentsOf(text));
}

export interface SentenceStream {
  /** The text written so far (the whole of it, each time); answers the sentences completed since the last call. */
  push(textSoFar: string): string[];
  /** The text is complete: answers whatever was not yet given out. */
  finish(text: string): string[];
}

export function createSentenceStream(): SentenceStream {
  let consumed = 0;
  return {
    push(textSoFar) {
      const segments = segmentsOf(textSoFar.slice(consumed));
      if (segments.length < 2) return [];
      const complete = segments.slice(0, -1);
      consumed += complete.reduce((sum, s) => sum + s.length, 0);
      return tidy(complete);
    },
    finish(text) {
      const rest = tidy(segmentsOf(text.slice(consumed)));
      consumed = text.length;
      return rest;
    },
  };
}
