// The builtin narrator: an offline demo that needs no network and no model weights. It writes
// 80-180 words of second-person story in the premise's genre, opening with the player's own verb
// and object, and ends on an open question. Replies are a pure function of (story, turn, attempt):
// each of its three paragraphs is drawn through a bijection of turn*4+attempt onto its template
// space, so no paragraph repeats within a story's first 576 turns; past that, each further round
// of 576 turns marks its paragraphs with the round's number, so none ever repeats. A retry (next
// attempt) gets a different reply that tests can still predict.
import type { Genre } from '@shared/constants';
import { capitalise, detectGenre, parseAction, wordCount, type ParsedAction } from './text';
import { VOCABULARY, type GenreWords } from './vocabulary';

const ATTEMPTS_PER_TURN = 4;
/** Bijections below multiply by this prime; it shares no factor with the 2^a*3^b space sizes. */
const STRIDE = 7919;
const PARAGRAPH_SPACE = 2304;

export const MIN_WORDS = 80;
export const MAX_WORDS = 180;
/** Turns per round of the template space (PARAGRAPH_SPACE / ATTEMPTS_PER_TURN); later rounds are marked. */
export const UNIQUE_TURNS = PARAGRAPH_SPACE / ATTEMPTS_PER_TURN;

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
    ` Somewhere far off, a bell tolls ${round + 1} times.`,
  ];
}

interface Slots {
  sight: string;
  sound: string;
  place: string;
  figure: string;
  omen: string;
}

const CONNECTORS = [
  'Your pulse quickens.',
  'You hold your breath and listen.',
  'Something here has noticed you.',
  'The air tastes of change.',
  'You are no longer alone, and you know it.',
  'Every instinct tells you to stay alert.',
  'You commit the moment to memory.',
  'It feels like the start of something.',
];

const DETAILS = [
  'The light is thin and uncertain here, and every surface seems to remember something you do not.',
  'The ground beneath you feels as if it has been waiting a long time for someone to walk this way.',
  'It is quieter than it should be, the kind of quiet that comes just before a decision.',
  'Shadows gather in the corners, patient and watchful, and the air is cool against your skin.',
  'Everything here looks ordinary at first glance, which is exactly what makes you uneasy.',
  'A faint warmth lingers, as though someone stood exactly where you stand only moments ago.',
  'The path ahead splits in two, and neither way looks like it has been travelled lately.',
  'Time seems to slow, every detail sharp enough to cut, as the world leans in to see what you will do.',
];

const QUESTIONS = [
  'What do you do next?',
  'Do you press on, or turn back while you still can?',
  'Where will you go from here?',
  'Who do you trust now?',
  'How much are you willing to risk to find out?',
  'Do you step forward, or wait to see what moves first?',
  'How do you answer?',
  'What is your next move?',
];

type Reaction = (a: ParsedAction, s: Slots) => string;
const it = (a: ParsedAction, fallback: string) => a.object || fallback;
const did = (a: ParsedAction) => `${a.verb}${a.object ? ` ${a.object}` : ''}`;

const REACTIONS: Reaction[] = [
  (a, s) =>
    `For a heartbeat ${a.object ? `${a.object} seems to resist you` : 'nothing happens'}, and then ${s.sight}, and ${s.sound} follows.`,
  (a, s) =>
    `${capitalise(s.sound)} answers at once, as if ${it(a, 'the world')} had been waiting for exactly this, and ${s.sight}.`,
  (a, s) => `It is the moment you ${did(a)} that everything changes: ${s.sight}, and ${s.sound} rolls toward you.`,
  (a, s) =>
    `Nobody could say you hesitated. As ${it(a, 'the moment')} gives way to your will, ${s.sight}, and ${s.sound} follows close behind.`,
  (a, s) =>
    `${a.object ? `${capitalise(a.object)} is closer than you thought, and stranger` : 'The air seems to hold its breath'}; ${s.sight}, while ${s.sound} drifts in from somewhere out of sight.`,
  (a, s) =>
    `You feel the choice to ${a.verb} settle into place. Almost at once ${s.sound} breaks the quiet and ${s.sight}.`,
  (a, s) =>
    `Whatever you expected when you chose to ${did(a)}, it was not this: ${s.sight}, and ${s.sound} fills the silence that follows.`,
  (a, s) =>
    `Your hands are steady, which surprises you. Around ${it(a, 'you')}, ${s.sight}, and ${s.sound} carries on the air.`,
];

/** The first reply answers the premise itself rather than an action. */
const OPENINGS: Array<(s: Slots) => string> = [
  (s) => `Your story begins here, where ${s.sight}, and ${s.sound} tells you that you are not as alone as you hoped.`,
  (s) => `It starts quietly. Then ${s.sight}, and ${s.sound} pulls your attention sharply to the present.`,
  (s) => `You take a breath and look around. Somewhere close, ${s.sound} rises and fades, and ${s.sight}.`,
  (s) => `Nothing about this day was supposed to be unusual. Yet ${s.sight}, and ${s.sound} makes your skin prickle.`,
  (s) => `You arrive just as the light begins to change. ${capitalise(s.sound)} greets you, and ${s.sight}.`,
  (s) => `Later you will remember this as the moment it all began: ${s.sight}, and ${s.sound} follows.`,
  (s) => `You have been here before, or somewhere very like it, but not like this; ${s.sight}.`,
  (s) => `The world seems to pause as you step forward. ${capitalise(s.sound)} breaks the stillness, and ${s.sight}.`,
];

type Scene = (s: Slots, detail: string) => string;
const SCENES: Scene[] = [
  (s, d) => `Beyond you lies ${s.place}. ${d} There, ${s.figure} watches you with an expression you cannot read.`,
  (s, d) =>
    `You find yourself drawn toward ${s.place}. ${d} Waiting there is ${s.figure}, who seems unsurprised to see you.`,
  (s, d) => `${capitalise(s.figure)} steps out from ${s.place} and raises a hand in greeting, or in warning. ${d}`,
  (s, d) => `${d} At ${s.place}, ${s.figure} is doing a poor job of pretending not to have been waiting for you.`,
  (s, d) => `The way ahead leads to ${s.place}. ${d} Someone is already there: ${s.figure}, perfectly still.`,
  (s, d) =>
    `Near ${s.place}, ${s.figure} is arguing with no one you can see, and falls silent the moment you appear. ${d}`,
  (s, d) => `${d} You are not the first to come to ${s.place} today; ${s.figure} has left fresh signs of passing.`,
  (s, d) => `Half hidden at ${s.place}, ${s.figure} beckons you closer. ${d}`,
];

// Every template uses every slot it is given: a slot a template ignored would let two different
// picks print the same paragraph and break the no-repeat guarantee.
type Closing = (omen: string) => string;
const CLOSINGS: Closing[] = [
  (omen) => `Then you notice it: ${omen}.`,
  (omen) => `Before you can catch your breath, word reaches you: ${omen}.`,
  (omen) => `One thing is certain now: ${omen}.`,
  (omen) => `You would like a moment to think, but the world does not give you one, because ${omen}.`,
  (omen) => `It is a small thing, easy to miss, yet it changes everything: ${omen}.`,
  (omen) => `As the moment passes, a chill reminds you how little you know, for ${omen}.`,
  (omen) => `Somewhere, the story is moving without you, and ${omen}.`,
  (omen) => `You have barely taken this in when you realise ${omen}.`,
];

const BEATS = [
  'The moment stretches, thin as wire.',
  'Nobody moves, and nobody needs to tell you why.',
  'Whatever happens next will be your doing.',
  'The silence that follows feels like a held breath.',
  'There is no going back to how things were an hour ago.',
  'You sense that others are waiting to see what you choose.',
];

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
}

/** The reply for one story, turn and attempt. */
export function composeReply(seed: TurnSeed): string {
  const genre: Genre = detectGenre(seed.premise);
  const words: GenreWords = VOCABULARY[genre];
  const action = parseAction(seed.action);
  const key = seed.turn * ATTEMPTS_PER_TURN + (seed.attempt % ATTEMPTS_PER_TURN);
  const salt = hash(`${seed.storyId}`);
  const marks = roundMarks(Math.floor(key / PARAGRAPH_SPACE));

  const [r, sight, connector, sound] = pickSlots(key, salt, [8, 6, 8, 6]);
  const [sc, place, figure, detail] = pickSlots(key, salt >>> 3, [8, 6, 6, 8]);
  const [cl, omen, question, beat] = pickSlots(key, salt >>> 7, [8, 6, 8, 6]);

  const p1Slots: Slots = { sight: words.sights[sight], sound: words.sounds[sound], place: '', figure: '', omen: '' };
  const opening = /[.!?"”]$/.test(action.clause) ? capitalise(action.clause) : `${capitalise(action.clause)}.`;
  const first =
    (seed.turn === 0
      ? `${OPENINGS[r](p1Slots)} ${CONNECTORS[connector]}`
      : `${opening} ${REACTIONS[r](action, p1Slots)} ${CONNECTORS[connector]}`) + marks[0];
  const second =
    SCENES[sc]({ ...p1Slots, place: words.places[place], figure: words.figures[figure] }, DETAILS[detail]) + marks[1];
  const third = `${CLOSINGS[cl](words.omens[omen])} ${BEATS[beat]}${marks[2]} ${QUESTIONS[question]}`;
  return [first, second, third].join('\n\n');
}

export function replyWordCount(reply: string): number {
  return wordCount(reply);
}
