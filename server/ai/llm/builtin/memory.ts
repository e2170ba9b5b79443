// The builtin narrator's summaries, made without a model (its titles: ../titles.ts). Summaries are extractive:
// they keep the sentences that carry names (so people and places survive a long story), the
// player's own actions read as English ("You slip the letter into your coat."), those that acted
// on something first, and the narrator's sentences about the things the player acted on, newest
// first when space runs short, within a token cap.
import type { TurnRecord } from '../types';
import { readAction, type English } from './action';
import { capitalise, namesIn, splitSentences } from './text';

interface Candidate {
  order: number;
  sentence: string;
  names: string[];
  isAction: boolean;
  /** For an action: what it acted on (object, destination, names); for a narrator sentence: the acted-on things it mentions. */
  things: string[];
}

export function summarizeExtractive(
  memory: string,
  turns: TurnRecord[],
  maxTokens: number,
  countTokens: (text: string) => number,
  english: English,
): string {
  const candidates: Candidate[] = [];
  const seen = new Set<string>();
  const add = (sentence: string, isAction: boolean, things: string[] = []) => {
    const key = sentence.toLowerCase();
    if (seen.has(key)) return;
    seen.add(key);
    candidates.push({ order: candidates.length, sentence, names: namesIn(sentence), isAction, things });
  };
  // What the player's actions touched (each with its word pattern, built once), so the narrator's
  // sentences about those things can be kept.
  const actedOn = new Map<string, RegExp>();
  for (const sentence of splitSentences(memory)) add(sentence, sentence.startsWith('You '));
  for (const turn of turns) {
    if (turn.role === 'user') {
      const reading = readAction(english, turn.content);
      const clause = capitalise(reading.clause);
      const touched = reading.clauses
        .flatMap((c) => [c.objectHead, c.destination.split(' ').at(-1) ?? ''])
        .concat(reading.names)
        .filter((w) => w && !/^(it|this|that|everything|something|nothing|him|her|them|you|yourself)$/i.test(w));
      for (const thing of touched.map((t) => t.toLowerCase()))
        if (!actedOn.has(thing)) actedOn.set(thing, new RegExp(`\\b${thing.replace(/[^a-z0-9' -]/g, '')}\\b`));
      add(
        /[.!?]["”]?$/.test(clause) ? clause : `${clause}.`,
        true,
        touched.map((t) => t.toLowerCase()),
      );
    } else {
      for (const sentence of splitSentences(turn.content)) {
        const lower = sentence.toLowerCase();
        const things = [...actedOn].filter(([, pattern]) => pattern.test(lower)).map(([thing]) => thing);
        if (namesIn(sentence).length > 0 || things.length > 0) add(sentence, false, things);
      }
    }
  }

  // Greedy cover: first every action, then every sentence, that brings a name not kept yet (oldest first, so the
  // earliest facts win), then the player's actions, newest first, those that acted on something
  // before those that did not; then the narrator's sentences about an acted-on thing not yet kept.
  const kept = new Set<Candidate>();
  const coveredNames = new Set<string>();
  const coveredThings = new Set<string>();
  let used = 0;
  const tryKeep = (c: Candidate) => {
    const cost = countTokens(c.sentence) + 1;
    if (used + cost > maxTokens) return;
    kept.add(c);
    used += cost;
    for (const name of c.names) coveredNames.add(name);
    for (const thing of c.things) coveredThings.add(thing);
  };
  // The player's own actions first: "I name my horse Bucephalus" is a fact the player planted,
  // while most names in the narrator's sentences are the premise's, which the prompt always carries.
  for (const c of candidates) if (c.isAction && c.names.some((n) => !coveredNames.has(n))) tryKeep(c);
  for (const c of candidates) if (c.names.some((n) => !coveredNames.has(n))) tryKeep(c);
  const newest = [...candidates].reverse();
  for (const c of newest) if (c.isAction && c.things.length > 0 && !kept.has(c)) tryKeep(c);
  for (const c of newest) if (c.isAction && !kept.has(c)) tryKeep(c);
  for (const c of newest) if (!c.isAction && !kept.has(c) && c.things.some((t) => !coveredThings.has(t))) tryKeep(c);
  return candidates
    .filter((c) => kept.has(c))
    .map((c) => c.sentence)
    .join(' ');
}
