// The builtin narrator's summaries, made without a model (its titles: ../titles.ts). Summaries are extractive:
// they keep the sentences that carry names (so people and places survive a long story) and the
// player's own actions, newest ones first when space runs short, within a token cap.
import type { TurnRecord } from '../types';
import { capitalise, namesIn, parseAction, splitSentences } from './text';

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
