// The sentence frames every genre shares: how a reaction, a scene and a closing are built around a
// genre's own words. Each frame in a list uses every slot it is given: a slot a frame ignored would
// let two different picks print the same paragraph and break the narrator's no-repeat guarantee.
// A concise list mirrors each full one with shorter, plainer frames.
import type { ActionClause } from '../action';
import { capital, type Opening } from './types';

export interface Moment {
  sight: string;
  sound: string;
  /** What the action bore on, as a noun phrase ("the rusty door", "Mara", "the old church"), or ''. */
  focus: string;
}

/** The noun phrase an action bore on: its object, else the noun phrase of its destination. */
export function focusOf(main: ActionClause, speech: string | null): string {
  if (speech) return '';
  if (main.object) return main.object;
  const destination = /^(?:\S+\s+)(the|a|an|your|his|her|their|this|that)\s+(.+)$/i.exec(main.destination);
  return destination ? `${destination[1].toLowerCase()} ${destination[2]}` : '';
}

type Reaction = (m: Moment) => string;

export const REACTIONS: Reaction[] = [
  (m) => `For a heartbeat nothing moves. Then ${m.sight}, and ${m.sound} follows.`,
  (m) => `${capital(m.sound)} answers at once, and ${m.sight}.`,
  (m) => `All eyes seem to turn to ${m.focus || 'you'} as ${m.sight}; ${m.sound} is not far behind.`,
  (m) => `Almost before you have finished, ${m.sound} reaches you from somewhere out of sight, and ${m.sight}.`,
  (m) => `Nothing much happens at first. Then ${m.sight}, while ${m.sound} carries on the air.`,
  (m) => `You are still taking in ${m.focus || 'the moment'} when ${m.sight}, and ${m.sound} follows close behind.`,
  (m) => `Around ${m.focus || 'you'}, ${m.sight}, and ${m.sound} fills the quiet that follows.`,
  (m) => `It does not go unnoticed. ${capital(m.sight)}, and ${m.sound} rises somewhere close.`,
];

export const CONCISE_REACTIONS: Reaction[] = [
  (m) => `${capital(m.sight)}. ${capital(m.sound)} follows.`,
  (m) => `${capital(m.sound)} answers, and ${m.sight}.`,
  (m) => `Then ${m.sight}, and ${m.sound} rises.`,
  (m) => `At once ${m.sight}; ${m.sound} is close behind.`,
  (m) => `${capital(m.sound)} breaks the quiet. ${capital(m.sight)}.`,
  (m) => `Around ${m.focus || 'you'}, ${m.sight}. ${capital(m.sound)} follows.`,
  (m) => `A pause, then ${m.sight}, and somewhere ${m.sound} starts up.`,
  (m) => `You hear ${m.sound} as ${m.sight}.`,
];

type Scene = (place: string, figure: string, detail: string) => string;

export const SCENES: Scene[] = [
  (p, f, d) => `Beyond you lies ${p}. ${d} There, ${f} watches you with an expression you cannot read.`,
  (p, f, d) => `You find yourself drawn toward ${p}. ${d} Waiting there is ${f}, who seems unsurprised to see you.`,
  (p, f, d) => `${capital(f)} steps out from ${p} and raises a hand, in greeting or in warning. ${d}`,
  (p, f, d) => `${d} Over by ${p}, ${f} is doing a poor job of pretending not to have been waiting for you.`,
  (p, f, d) => `The way ahead leads to ${p}. ${d} Someone is already there: ${f}, perfectly still.`,
  (p, f, d) => `Near ${p}, ${f} is muttering to no one you can see, and falls silent the moment you appear. ${d}`,
  (p, f, d) => `${d} You are not the first to come to ${p} today; ${f} got there before you.`,
  (p, f, d) => `Half hidden at ${p}, ${f} beckons you closer. ${d}`,
];

export const CONCISE_SCENES: Scene[] = [
  (p, f, d) => `${capital(f)} waits at ${p}. ${d}`,
  (p, f, d) => `${d} ${capital(f)} stands near ${p}.`,
  (p, f, d) => `At ${p}, ${f} watches you. ${d}`,
  (p, f, d) => `${capital(f)} beckons from ${p}. ${d}`,
  (p, f, d) => `${d} Over at ${p}, ${f} looks up.`,
  (p, f, d) => `You head for ${p}, where ${f} is waiting. ${d}`,
  (p, f, d) => `${d} ${capital(f)} blocks the way to ${p}.`,
  (p, f, d) => `Near ${p}, ${f} falls silent as you pass. ${d}`,
];

type Closing = (omen: string) => string;

export const CLOSINGS: Closing[] = [
  (o) => `Then you notice it: ${o}.`,
  (o) => `Before you can catch your breath, word reaches you: ${o}.`,
  (o) => `One thing is certain now: ${o}.`,
  (o) => `You would like a moment to think, but there is no time for that, because ${o}.`,
  (o) => `It is a small thing, easy to miss, yet it changes everything: ${o}.`,
  (o) => `As the moment passes, you realise how little you know, for ${o}.`,
  (o) => `Somewhere, the story is moving without you, and ${o}.`,
  (o) => `You have barely taken this in when you learn that ${o}.`,
];

export const CONCISE_CLOSINGS: Closing[] = [
  (o) => `Then you notice: ${o}.`,
  (o) => `Word reaches you: ${o}.`,
  (o) => `One thing is clear: ${o}.`,
  (o) => `Worse, ${o}.`,
  (o) => `Then you see it: ${o}.`,
  (o) => `Meanwhile, ${o}.`,
  (o) => `You learn that ${o}.`,
  (o) => `And now ${o}.`,
];

/** Openings any genre can use; each genre adds four of its own. */
export const SHARED_OPENINGS: Opening[] = [
  (o) =>
    `Your story begins at ${o.where}. ${capital(o.sight)}, ${o.sound} rises close by, and ${o.person} is the first to notice you.`,
  (o) =>
    `You take a breath and look around ${o.where}. Somewhere close, ${o.sound} rises and fades, and ${o.sight}. ${capital(o.person)} glances your way.`,
  (o) =>
    `Nothing about this day at ${o.where} was supposed to be unusual. Yet ${o.sight}, ${o.sound} catches your attention, and ${o.person} seems to be waiting for you.`,
  (o) =>
    `You arrive at ${o.where} just as the light begins to change. ${capital(o.sound)} greets you, ${o.sight}, and ${o.person} steps forward to meet you.`,
];

export const SHARED_QUESTIONS = [
  'What do you do next?',
  'Where do you go from here?',
  'How do you answer?',
  'What will you choose?',
];

export const BEATS = [
  'The moment stretches, thin as wire.',
  'Whatever happens next will be your doing.',
  'There is no going back to how things were an hour ago.',
  'You sense that others are waiting to see what you choose.',
  'For now, the choice is still yours.',
  'The next step, as ever, is up to you.',
];
