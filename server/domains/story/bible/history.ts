// The story bible's history: facts about the same attribute of the same entity ("your horse",
// "name") are one line of history, whatever article or possessive they were written with; the
// newest turn's value is current and supersedes the one before it, and so on back. Worked out from
// the facts the story shows each time the bible is read, so undo, redo, erase and the player's
// edits never leave a stored chain to repair.
import type { StoredFact } from '@server/db/repositories/story-bible';

export interface BibleEntry extends StoredFact {
  /** The fact of the same entity and attribute just before this one, if any. */
  supersedes: number | null;
  /** No later fact replaces it: the narrator is sent only current facts. */
  current: boolean;
}

/**
 * The words an entity or attribute is grouped by: lower case, punctuation and spaces folded, a
 * leading article or possessive ("the", "your", "my") left out, so "Your horse" and "the horse" are
 * one thing.
 */
export function factKey(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s'-]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^(?:the|a|an|your|my|his|her|their|our)\s+/u, '');
}

export const lineKey = (fact: Pick<StoredFact, 'entity' | 'attribute'>) =>
  `${factKey(fact.entity)}\u0000${factKey(fact.attribute)}`;

/** By turn, then as written (id): the order a story states its facts in. */
const byTurn = (a: StoredFact, b: StoredFact) => a.turn - b.turn || a.id - b.id;

/** Each fact with what it supersedes and whether it is current, oldest turn first. */
export function withHistory(facts: StoredFact[]): BibleEntry[] {
  const lines = new Map<string, StoredFact[]>();
  for (const fact of [...facts].sort(byTurn)) {
    const key = lineKey(fact);
    const line = lines.get(key);
    if (line) line.push(fact);
    else lines.set(key, [fact]);
  }
  const entries = new Map<number, BibleEntry>();
  for (const line of lines.values())
    line.forEach((fact, i) =>
      entries.set(fact.id, { ...fact, supersedes: i > 0 ? line[i - 1].id : null, current: i === line.length - 1 }),
    );
  return [...facts].sort(byTurn).map((fact) => entries.get(fact.id)!);
}

/** The fact and every older one of its line: what deleting a fact takes with it. */
export function lineThrough(entries: BibleEntry[], id: number): number[] {
  const byId = new Map(entries.map((e) => [e.id, e]));
  const ids: number[] = [];
  for (let entry = byId.get(id); entry; entry = entry.supersedes === null ? undefined : byId.get(entry.supersedes))
    ids.push(entry.id);
  return ids;
}
