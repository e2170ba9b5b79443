// The player's preferences in the offline narrator's prose: the narrative style sets the length
// and pace, the language style the diction (archaic, formal), and the content rating how dark it
// may get. The rewriters touch the narrator's own words only, never text inside quotes.
import type { NarratorVoicePreferences } from '../../types';

type NarrativeStyle = NarratorVoicePreferences['narrativeStyle'];

/** Words per reply by narrative style: concise is plain and short, dramatic lean and punchy. */
export const WORD_BOUNDS: Record<NarrativeStyle, { min: number; max: number }> = {
  descriptive: { min: 80, max: 180 },
  concise: { min: 40, max: 135 },
  dramatic: { min: 70, max: 180 },
};

/** Words the general rating never prints from the narrator's own stock. */
export const GORE_WORDS =
  /\b(blood\w*|gore|gory|corpses?|bod(y|ies)|dead|death|deceased|died|dies|dying|kill\w*|murder\w*|graves?|gallows|bones?|wounded|buried)\b/i;

/** Archaic diction in the narration (no thee and thou): one aside per reply makes it unmistakable. */
export const ARCHAIC_ASIDES = [
  "'Tis a strange hour, and stranger still what it brings.",
  'Yonder, the light is already failing.',
  'Ere long, all shall be made plain.',
  "Mark it well, for 'tis no small thing.",
  'Yonder lies the way, should you have the heart for it.',
  'Ere the day is out, much shall be asked of you.',
];

/** Measured diction for the formal style. */
export const FORMAL_ASIDES = [
  'It would be prudent to consider this with some care.',
  'One cannot help but observe a certain significance in it.',
  'The circumstances, it must be said, are most irregular.',
  'It is, by any reasonable measure, a development of consequence.',
  'Prudence, at this juncture, would not go amiss.',
  'The matter, one suspects, is far from concluded.',
];

/** The dramatic style's stakes, said out loud. */
export const DRAMATIC_STAKES = [
  'Everything hangs on what you do next!',
  'There is no time left to think!',
  'It is now or never!',
  'One wrong move and it is all over!',
  'The whole thing could fall apart in a heartbeat!',
  'This is the moment that decides everything!',
];

const ARCHAIC_WORDS: Array<[RegExp, string]> = [
  [/\bIt is\b/g, "'Tis"],
  [/\bit is\b/g, "'tis"],
  [/\bperhaps\b/g, 'perchance'],

  [/\bwhile\b/g, 'whilst'],
  [/\bamong\b/g, 'amongst'],
  [/\boften\b/g, 'oft'],
  [/\bBefore you\b/g, 'Ere you'],
  [/\bbefore you\b/g, 'ere you'],
];

const CONTRACTIONS: Array<[RegExp, string]> = [
  [/\b(c)an't\b/gi, '$1annot'],
  [/\b(w)on't\b/gi, '$1ill not'],
  [/\b(s)han't\b/gi, '$1hall not'],
  [/\b(\w+)n't\b/gi, '$1 not'],
  [/\b(it|that|there|what|who|here|where|he|she)'s\b/gi, '$1 is'],
  [/\b(l)et's\b/gi, '$1et us'],
  [/\b(\w+)'re\b/gi, '$1 are'],
  [/\b(\w+)'ll\b/gi, '$1 will'],
  [/\b(\w+)'ve\b/gi, '$1 have'],
  [/\b(\w+)'d\b/gi, '$1 would'],
  [/\b(\w+)'m\b/gi, '$1 am'],
  [/'(t)is\b/gi, '$1t is'],
];

/** Applies the rewrites to the text outside double quotes (quoted speech is the player's own). */
function outsideQuotes(text: string, rewrites: Array<[RegExp, string]>): string {
  return text
    .split(/("[^"]*"|“[^”]*”)/)
    .map((part, i) => (i % 2 === 1 ? part : rewrites.reduce((acc, [from, to]) => acc.replace(from, to), part)))
    .join('');
}

export function archaize(text: string): string {
  return outsideQuotes(text, ARCHAIC_WORDS);
}

export function formalize(text: string): string {
  return outsideQuotes(text, CONTRACTIONS);
}

/** "Nobody claps." -> "Nobody claps!": the dramatic style raises its voice. */
export function exclaim(sentence: string): string {
  return sentence.replace(/\.$/, '!');
}
