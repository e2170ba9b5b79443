// The builtin narrator: an offline demo that needs no network and no model weights. It writes a
// short second-person reply in the premise's genre (voices/), in the player's narrative style,
// language style and content rating (voices/style.ts), weaving in the premise's places and people
// and what the player took or named in the last few actions (voices/continuity.ts). It opens with
// the player's own action and ends on an open question.
//
// No paragraph repeats within a story: each of the three paragraphs is drawn through a bijection
// of turn*4+attempt onto its slot space (PARAGRAPH_SPACE = the product of its four list sizes), and
// every frame prints every slot it is given at a fixed place, so two turns never print the same
// paragraph within the first UNIQUE_TURNS turns; past that, each further round marks its
// paragraphs with the round's number. What continuity and preferences add are extra sentences
// around the slots, which cannot make two different slot picks read the same. Replies are a pure
// function of the seed: a retry (next attempt) differs, and tests can predict it.
import type { Genre } from '@shared/constants';
import { DEFAULT_PREFERENCES } from '@shared/schemas/preferences';
import { classifyGenre } from '@server/ai/genre';
import type { NarratorVoicePreferences, TurnRecord } from '../types';
import type { English } from './action';
import { wordCount } from './text';
import { capital } from './voices/types';
import { VOICES } from './voices';
import {
  premiseAnchors,
  premiseThingLine,
  readActionCached,
  recall,
  threadsOf,
  type PremiseAnchors,
} from './voices/continuity';
import {
  BEATS,
  CLOSINGS,
  CONCISE_CLOSINGS,
  CONCISE_REACTIONS,
  CONCISE_SCENES,
  focusOf,
  REACTIONS,
  SCENES,
  SHARED_OPENINGS,
  SHARED_QUESTIONS,
  type Moment,
} from './voices/frames';
import {
  archaize,
  ARCHAIC_ASIDES,
  DRAMATIC_STAKES,
  exclaim,
  formalize,
  FORMAL_ASIDES,
  GORE_WORDS,
  WORD_BOUNDS,
} from './voices/style';

const ATTEMPTS_PER_TURN = 4;
/** Bijections below multiply by this prime; it shares no factor with the 2^a*3^b space sizes. */
const STRIDE = 7919;
const PARAGRAPH_SPACE = 2304;

/** The descriptive style's bounds (the default); WORD_BOUNDS has every style's. */
export const MIN_WORDS = WORD_BOUNDS.descriptive.min;
export const MAX_WORDS = WORD_BOUNDS.descriptive.max;
export { WORD_BOUNDS };
/** Turns per round of the template space (PARAGRAPH_SPACE / ATTEMPTS_PER_TURN); later rounds are marked. */
export const UNIQUE_TURNS = PARAGRAPH_SPACE / ATTEMPTS_PER_TURN;
/** The longest restatement of the player's action before the reply answers only its main clause. */
const MAX_RESTATED_WORDS = 30;

function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}

/**
 * The round's own sentence for each paragraph once the template space has been used up (round 1
 * is turns 576-1151, and so on): the number makes every later paragraph differ from all earlier ones.
 */
function roundMarks(round: number): [string, string, string] {
  if (round === 0) return ['', '', ''];
  return [
    ` The feeling of having been here before comes for the ${ordinal(round + 1)} time.`,
    ` You count ${round + 1} turns of the great wheel since the beginning.`,
    ` Somewhere far off, a bell rings ${round + 1} times.`,
  ];
}

/** FNV-1a over a string: a stable seed with no dependency on Math.random. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/**
 * A bijection of key onto [0, PARAGRAPH_SPACE), decomposed into one index per slot (mixed radix).
 * An affine map alone would make the low digits cycle with a short period from turn to turn, so
 * each digit is also shifted by a hash of the digits above it (still invertible: those are kept).
 */
function pickSlots(key: number, salt: number, sizes: number[]): number[] {
  let index = Number((BigInt(STRIDE) * BigInt(key) + BigInt(salt)) % BigInt(PARAGRAPH_SPACE));
  const digits = sizes.map((size) => {
    const digit = index % size;
    index = Math.floor(index / size);
    return digit;
  });
  return digits.map((digit, i) => (digit + hash(`${salt}:${i}:${digits.slice(i + 1).join(',')}`)) % sizes[i]);
}

export interface TurnSeed {
  storyId: number;
  /** 0 is the opening reply to the premise; 1.. answer the player's actions. */
  turn: number;
  attempt: number;
  premise: string;
  action: string;
  /** The newest turns before the action, oldest first (what continuity reads). */
  recent?: TurnRecord[];
  preferences?: NarratorVoicePreferences;
}

/** The premise's anchors, less any the general rating would not print. */
function anchorsFor(english: English, premise: string, rating: string): PremiseAnchors {
  const anchors = premiseAnchors(english, premise);
  if (rating !== 'general') return anchors;
  const clean = (text: string) => (GORE_WORDS.test(text) ? '' : text);
  return {
    city: clean(anchors.city),
    setting: clean(anchors.setting),
    people: anchors.people.filter(clean),
    things: anchors.things.filter(clean),
  };
}

/**
 * The first of `candidates`, from `start` round, that none of the `said` replies contains (as the
 * narrator wrote it, or as the archaic and formal rewrites change little of a sentence's middle,
 * by its first words); '' when every one was said lately.
 */
function freshLine(candidates: readonly string[], start: number, said: readonly string[]): string {
  for (let i = 0; i < candidates.length; i += 1) {
    const line = candidates[(start + i) % candidates.length];
    const probe = line.split(' ').slice(1, 6).join(' ');
    if (!said.some((reply) => reply.includes(probe))) return line;
  }
  return '';
}

/** The player's action restated as the reply's first sentence. */
function restate(clause: string, mainText: string): string {
  const text = wordCount(clause) > MAX_RESTATED_WORDS ? mainText : clause;
  return /[.!?"”]$/.test(text) ? capital(text) : `${capital(text)}.`;
}

/** The reply for one story, turn and attempt. */
export function composeReply(seed: TurnSeed, english: English): string {
  const preferences = { ...DEFAULT_PREFERENCES, ...seed.preferences };
  const { narrativeStyle: style, languageStyle: language, contentRating: rating } = preferences;
  const genre: Genre = classifyGenre(seed.premise).genre;
  const voice = VOICES[genre];
  const anchors = anchorsFor(english, seed.premise, rating);
  const key = seed.turn * ATTEMPTS_PER_TURN + (seed.attempt % ATTEMPTS_PER_TURN);
  const salt = hash(`${seed.storyId}`);
  const marks = roundMarks(Math.floor(key / PARAGRAPH_SPACE));
  const concise = style === 'concise';
  const dramatic = style === 'dramatic';
  const aside = hash(`${salt}:${key}`);

  const [r, sight, connectorAt, sound] = pickSlots(key, salt, [8, 6, 8, 6]);
  const [sc, place, figure, detail] = pickSlots(key, salt >>> 3, [8, 6, 6, 8]);
  const [cl, omen, question, beat] = pickSlots(key, salt >>> 7, [8, 6, 8, 6]);

  const connector = dramatic ? exclaim(voice.connectors[connectorAt]) : voice.connectors[connectorAt];
  // The sentences added around the slots (a second sense, an aside, the stakes, a shade of peril,
  // a remembered thread) come from short lists: each is one the last replies have not said, or is
  // left out, so that they never make a reply read like the ones before it (the loop guard measures
  // just that).
  const said = (seed.recent ?? []).filter((turn) => turn.role === 'assistant').map((turn) => turn.content);
  const fresh = (candidates: readonly string[], start: number) => freshLine(candidates, start, said);
  // Descriptive adds a second sensory sentence: another of the genre's details than the scene's.
  const sense =
    style === 'descriptive'
      ? fresh(
          voice.details.filter((_, i) => i !== detail),
          detail + aside,
        )
      : '';
  const senseText = sense ? ` ${sense}` : '';

  let restatement = '';
  let body: string;
  if (seed.turn === 0) {
    // The opening answers the premise in the genre, at its setting, with someone from it.
    const setting = anchors.setting || voice.places[salt % voice.places.length];
    const opening = [...voice.openings, ...SHARED_OPENINGS][r]({
      sight: voice.sights[sight],
      sound: voice.sounds[sound],
      where: anchors.city ? `${setting} in ${anchors.city}` : setting,
      // Someone the premise names, else one of the genre's figures other than the scene's own.
      person:
        anchors.people[0] ??
        voice.figures[(figure + 1 + ((salt >>> 5) % (voice.figures.length - 1))) % voice.figures.length],
    });
    body = `${opening} ${connector}`;
  } else {
    const reading = readActionCached(english, seed.action);
    restatement = restate(reading.clause, reading.main.text);
    const moment: Moment = {
      sight: voice.sights[sight],
      sound: voice.sounds[sound],
      focus: focusOf(reading.main, reading.speech),
    };
    body = `${(concise ? CONCISE_REACTIONS : REACTIONS)[r](moment)} ${connector}`;
  }

  const threads = threadsOf(english, seed.premise, seed.recent ?? [], seed.turn === 0 ? '' : seed.action);
  // The opening stands in the premise's setting with its people and has the first thing it names in
  // mind; later turns recall them.
  const recalled = seed.turn === 0 ? premiseThingLine(anchors, salt) : recall(threads, anchors, seed.turn);
  const remembered = recalled && fresh([recalled], 0);
  const scene = (concise ? CONCISE_SCENES : SCENES)[sc](
    voice.places[place],
    voice.figures[figure],
    voice.details[detail],
  );
  const asideLine =
    language === 'archaic' ? fresh(ARCHAIC_ASIDES, aside) : language === 'formal' ? fresh(FORMAL_ASIDES, aside) : '';
  const diction = asideLine ? ` ${asideLine}` : '';

  const questions = [...voice.questions, ...SHARED_QUESTIONS];
  const stakesLine = dramatic ? fresh(DRAMATIC_STAKES, aside) : '';
  const stakes = stakesLine ? `${stakesLine} ` : '';
  const shadeLine =
    rating === 'teen' ? fresh(voice.peril, aside) : rating === 'mature' ? fresh(voice.darker, aside) : '';
  const shade = shadeLine ? ` ${shadeLine}` : '';
  const closing = (concise ? CONCISE_CLOSINGS : CLOSINGS)[cl](voice.omens[omen]);
  const third = `${stakes}${closing} ${BEATS[beat]}${shade}${marks[2]}`;

  const rewrite = (text: string) =>
    language === 'archaic' ? archaize(text) : language === 'formal' ? formalize(text) : text;
  // The restatement is the player's own action: archaic diction stays out of it, formal expands it.
  const lead = restatement ? `${language === 'formal' ? formalize(restatement) : restatement} ` : '';
  const assemble = (sense: string, recalled: string) =>
    [
      `${lead}${rewrite(`${body}${sense}`)}${marks[0]}`,
      `${rewrite(`${scene}${recalled ? ` ${recalled}` : ''}${diction}`)}${marks[1]}`,
      `${rewrite(third)} ${questions[question]}`,
    ].join('\n\n');
  // A long action or a late round's marks may push past the style's bound: the extras around the
  // slots give way first (the second sensory sentence, then the recalled thread), never a slot.
  const { max } = WORD_BOUNDS[style];
  const full = assemble(senseText, remembered);
  if (wordCount(full) <= max) return full;
  const lean = assemble('', remembered);
  return wordCount(lean) <= max ? lean : assemble('', '');
}

export function replyWordCount(reply: string): number {
  return wordCount(reply);
}
