// The bible as the panel shows it: the current facts (those no other fact supersedes), each with its
// history (the older values it replaced, newest first), grouped by what they are about in the order
// the story first named them (the server sends the facts oldest turn first).
import type { BibleFact } from '@shared/schemas/story-bible';

export interface BibleEntry {
  fact: BibleFact;
  /** The values this fact replaced: fact.supersedes, then that one's, and so on. */
  history: BibleFact[];
}

export interface BibleGroup {
  entity: string;
  entries: BibleEntry[];
}

export function groupBibleFacts(facts: readonly BibleFact[]): BibleGroup[] {
  const byId = new Map(facts.map((fact) => [fact.id, fact]));
  const olderOf = (fact: BibleFact) => (fact.supersedes === null ? undefined : byId.get(fact.supersedes));
  const superseded = new Set(facts.map((fact) => fact.supersedes).filter((id) => id !== null));
  const groups = new Map<string, BibleGroup>();
  for (const fact of facts) {
    if (superseded.has(fact.id)) continue;
    const history: BibleFact[] = [];
    // A chain that loops back on itself (a server's mistake) is shown once, not forever.
    const seen = new Set([fact.id]);
    for (let older = olderOf(fact); older && !seen.has(older.id); older = olderOf(older)) {
      seen.add(older.id);
      history.push(older);
    }
    const group = groups.get(fact.entity) ?? { entity: fact.entity, entries: [] };
    group.entries.push({ fact, history });
    groups.set(fact.entity, group);
  }
  return [...groups.values()];
}

/** The current facts pinned (a superseded value is history, never sent). */
export const pinnedCount = (groups: readonly BibleGroup[]) =>
  groups.reduce((n, group) => n + group.entries.filter((entry) => entry.fact.pinned).length, 0);
