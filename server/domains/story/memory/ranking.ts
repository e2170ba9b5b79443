// Retrieval's ranking, as pure functions over the rows the memory bank's repository returns: Okapi
// BM25 over one story's passages, with the story's term statistics (how many live passages, their
// mean length, how many hold each query term; kept per story through undo, erase and edits, see
// db/schema/memory.ts). A rare term weighs more than a common one, which PostgreSQL's ts_rank
// cannot do (it knows no corpus statistics).

/** BM25's usual constants: term-frequency saturation and length normalisation. */
export const BM25 = { k1: 1.2, b: 0.75 };

export interface QueryTerm {
  term: string;
  /** How much this term counts (the action's words more than the last reply's). */
  weight: number;
  /** The word as the query wrote it, for the reason shown to the player. */
  word: string;
  /** A passage must match at least one anchoring term to be ranked at all (see recall.ts). */
  anchor: boolean;
}

export interface CorpusStats {
  /** Passages the story shows. */
  passages: number;
  /** Their mean length in terms. */
  meanLength: number;
  /** Passages holding each query term. */
  holding: Map<string, number>;
}

export interface PassageHit {
  id: number;
  messageId: number;
  /** Its length in terms. */
  length: number;
  /** How often each query term it holds occurs in it. */
  frequencies: Map<string, number>;
}

export interface RankedPassage {
  id: number;
  messageId: number;
  score: number;
  /** The query's words it matched, the weightiest first. */
  matched: string[];
}

/** A term's rarity: never negative, so a term in most passages still counts a little. */
export function inverseFrequency(passages: number, holding: number): number {
  return Math.log(1 + (passages - holding + 0.5) / (holding + 0.5));
}

/**
 * The hits that match an anchoring term, by BM25 score over all the query's terms, best first;
 * equal scores go to the more recent message, then the earlier passage.
 */
export function rankByBm25(
  hits: PassageHit[],
  stats: CorpusStats,
  query: QueryTerm[],
  params: { k1: number; b: number } = BM25,
): RankedPassage[] {
  const meanLength = Math.max(stats.meanLength, 1);
  const passages = Math.max(stats.passages, hits.length);
  const anchors = new Set(query.filter((q) => q.anchor).map((q) => q.term));
  const anchored = hits.filter((hit) => [...hit.frequencies.keys()].some((term) => anchors.has(term)));
  const ranked = anchored.map((hit) => {
    const contributions: Array<{ word: string; score: number }> = [];
    for (const { term, weight, word } of query) {
      const frequency = hit.frequencies.get(term) ?? 0;
      if (frequency === 0) continue;
      const rarity = inverseFrequency(passages, stats.holding.get(term) ?? 1);
      const saturation =
        (frequency * (params.k1 + 1)) / (frequency + params.k1 * (1 - params.b + (params.b * hit.length) / meanLength));
      contributions.push({ word, score: weight * rarity * saturation });
    }
    contributions.sort((a, b) => b.score - a.score);
    return {
      id: hit.id,
      messageId: hit.messageId,
      score: contributions.reduce((sum, c) => sum + c.score, 0),
      matched: [...new Set(contributions.map((c) => c.word))],
    };
  });
  return ranked
    .filter((r) => r.score > 0)
    .sort((a, b) => b.score - a.score || b.messageId - a.messageId || a.id - b.id);
}
