// Reciprocal rank fusion, as RisuAI fuses its two rankings: each ranking gives a passage
// 1 / (k + its rank), and the sums order the passages. Ranks only, never raw scores, so BM25's
// unbounded scores and cosines in [-1, 1] need no common scale; a passage both rankings place high
// beats one that only one of them does. k = 60 is the constant of Cormack, Clarke and Büttcher
// (2009), which RisuAI keeps too: it damps the difference between the first few ranks.

export const RRF_K = 60;

export interface Ranked {
  id: number;
  /** Its message: equal fused scores go to the more recent one, as each ranking's ties do. */
  messageId: number;
}

export interface Fused {
  id: number;
  messageId: number;
  score: number;
  /** Its rank in each ranking, from 1, in the rankings' order; null where a ranking did not hold it. */
  ranks: Array<number | null>;
}

/** The rankings (each best first) fused into one, best first; ties go to the newer message, then the lower id. */
export function fuseByReciprocalRank(rankings: Ranked[][], k: number = RRF_K): Fused[] {
  const fused = new Map<number, Fused>();
  rankings.forEach((ranking, which) => {
    ranking.forEach((item, i) => {
      let entry = fused.get(item.id);
      if (!entry) {
        entry = { id: item.id, messageId: item.messageId, score: 0, ranks: rankings.map(() => null) };
        fused.set(item.id, entry);
      }
      // A ranking that lists one passage twice counts its better rank only.
      if (entry.ranks[which] !== null) return;
      entry.ranks[which] = i + 1;
      entry.score += 1 / (k + i + 1);
    });
  });
  return [...fused.values()].sort((a, b) => b.score - a.score || b.messageId - a.messageId || a.id - b.id);
}
