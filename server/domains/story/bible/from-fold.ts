// The facts a fold's answer states, tied to the messages they came from. A model's turn numbers are
// a claim: a fact goes to the message of the piece at that turn that holds its value (else the
// turn's last message), or, when the turn is not one of the piece's, to the last message holding
// the value, else the piece's last message. A fact that only repeats the current value of its
// line is not added again; a new value keeps the pin of the one it replaces.
import type { FactInput } from '@server/ai/llm/summary-answer';
import type { NewFact } from '@server/db/repositories/story-bible';
import { lineKey, type BibleEntry } from './history';

export interface FoldSource {
  id: number;
  turn: number;
  content: string;
}

function sourceOf(fact: FactInput, sources: FoldSource[]): FoldSource {
  const holds = (s: FoldSource) => s.content.toLowerCase().includes(fact.value.toLowerCase());
  const atTurn = fact.turn === null ? [] : sources.filter((s) => s.turn === fact.turn);
  if (atTurn.length > 0) return atTurn.findLast(holds) ?? atTurn.at(-1)!;
  return sources.findLast(holds) ?? sources.at(-1)!;
}

export function factsFromFold(facts: FactInput[], sources: FoldSource[], current: BibleEntry[]): NewFact[] {
  if (sources.length === 0) return [];
  const lines = new Map(current.filter((e) => e.current).map((e) => [lineKey(e), e]));
  const added: NewFact[] = [];
  for (const fact of facts) {
    const key = lineKey(fact);
    const before = lines.get(key);
    if (before && before.value.toLowerCase() === fact.value.toLowerCase()) continue;
    const source = sourceOf(fact, sources);
    const next: NewFact = {
      messageId: source.id,
      turn: source.turn,
      entity: fact.entity,
      attribute: fact.attribute,
      value: fact.value,
      pinned: before?.pinned ?? false,
    };
    added.push(next);
    lines.set(key, { ...next, id: 0, supersedes: null, current: true });
  }
  return added;
}
