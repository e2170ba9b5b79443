// A turn's recall: the passages of earlier turns most relevant to the new action, the last reply and
// the story cards that came up, from the memory bank. The query's words weigh by where they come
// from (the action most); the story's passages are ranked by BM25 (ranking.ts), those already in
// the verbatim window are skipped, and those far below the best are not worth their tokens. With
// embeddings, the passages nearest the action in meaning (vector-recall.ts) are fused with them by
// reciprocal rank (fusion.ts). The best that fit the recall budget are sent in story order, each
// with the reason the context viewer shows ("matched 'horse', rank 1 of 38").
import type { Count } from '@server/ai/llm/context';
import { recallBlock } from '@server/ai/llm/prompts';
import type { Repositories } from '@server/db/repositories';
import type { PassageHitRow } from '@server/db/repositories/memory-bank';
import type { ContextBlock } from '@shared/schemas/story-cards';
import { fuseByReciprocalRank } from './fusion';
import { rankByBm25, type QueryTerm, type RankedPassage } from './ranking';
import type { NearVector } from './vector-cache';
import { wordsOf } from './terms';

/** Distinct terms a query holds at most: the action's first, so a long last reply cannot crowd it out. */
export const MAX_QUERY_TERMS = 48;
/** Ranked passages read for the budget: more than ever fit 700 tokens of ~80-token passages. */
export const RECALL_CANDIDATES = 16;
/**
 * Passages a turn ranks at most, the newest that hold an anchoring term: a turn's work is bounded by
 * its own words, not by its story. Only an anchor held this widely reaches the cap (a story whose
 * every action says "lantern"), and there the newest passages holding it are the ones worth ranking.
 */
export const RANKED_PASSAGES_MAX = 256;
/**
 * A passage scoring under this share of the best one is not recalled: beside a passage that names
 * the thing asked about, one that shares only a common word of the action ("look") is noise, and
 * recalled tokens are paid for on every turn.
 */
export const RELATIVE_SCORE_FLOOR = 0.35;
/**
 * Passages less similar to the action than this share of the nearest are not worth fusing: a
 * query's nearest passages are near in meaning, the long tail only less far, and recalled tokens
 * are paid for on every turn.
 */
export const VECTOR_RELATIVE_FLOOR = 0.8;
/** How much each source's words count. */
export const QUERY_WEIGHTS = { action: 1, cards: 0.8, lastReply: 0.2 };

export interface RecallQueryInput {
  action: string;
  /** The names of the story cards that came up this turn. */
  cardNames: string[];
  /** The narrator's last reply, if there is one. */
  lastReply?: string;
}

/**
 * The query's terms, each once with its weightiest source's weight, the action's first. The action's
 * and the cards' terms anchor it: a passage that shares only words of the last reply (its scenery,
 * most of them) is not worth the room. An action with no terms of its own ("Yes.") lets the last
 * reply's anchor instead.
 */
export function recallQuery(input: RecallQueryInput): QueryTerm[] {
  const terms = new Map<string, QueryTerm>();
  const add = (text: string, weight: number, anchor: boolean) => {
    for (const { word, term } of wordsOf(text)) {
      const known = terms.get(term);
      if (known) known.weight = Math.max(known.weight, weight);
      else if (terms.size < MAX_QUERY_TERMS) terms.set(term, { term, weight, word, anchor });
    }
  };
  add(input.action, QUERY_WEIGHTS.action, true);
  add(input.cardNames.join('\n'), QUERY_WEIGHTS.cards, true);
  add(input.lastReply ?? '', QUERY_WEIGHTS.lastReply, terms.size === 0);
  return [...terms.values()];
}

/** What full-text ranking needs: the query, and whose passages, before which message. */
export interface FullTextInput {
  /** The turn's query (recallQuery). */
  query: QueryTerm[];
  repos: Pick<Repositories, 'memoryBank'>;
  storyId: number;
  /** The oldest message of the verbatim window (or the action): only passages before it are recalled. */
  beforeId: number;
}

export interface RecallInput extends FullTextInput {
  budgetTokens: number;
  count: Count;
  joinerTokens: number;
  /** The passages nearest in meaning to the action, best first (vector-recall.ts), when embeddings are on. */
  near?: NearVector[];
  /**
   * Full text's ranking (rankByFullText), when the caller started it alongside its other waits (the
   * action's embedding); ranked here otherwise.
   */
  ranked?: Promise<RankedPassage[]>;
}

export interface Recall {
  /** The recalled passages' texts as sent, in story order. */
  texts: string[];
  /** Their context-record blocks (sent ones, then those ranked but left out for room). */
  blocks: ContextBlock[];
  /** Passages full text ranked: those matching an anchor, before the floor and the budget. */
  ranked: number;
  /** Vector neighbours fused in (0 without embeddings). */
  near: number;
}

export const NO_RECALL: Recall = { texts: [], blocks: [], ranked: 0, near: 0 };

/** Why a ranked passage or fact was chosen, as the context viewer shows it: its best three words and its rank. */
export const matchedReason = (matched: string[], rank: number, ranked: number) =>
  `matched ${matched
    .slice(0, 3)
    .map((w) => `'${w}'`)
    .join(', ')}, rank ${rank} of ${ranked}`;

/** A term held by more passages than this does not anchor a query on its own (see anchorByRarity). */
export const COMMON_TERM_SHARE = 0.2;
const COMMON_TERM_MIN = 8;

/**
 * The query with its anchors narrowed to the terms the story holds and not commonly: a word of the
 * action found in a fifth of the story's passages ("look", "walk") would bring in hundreds of them,
 * each worth little. If every anchor is common, nothing anchors: such a word cannot single out a
 * passage, and ranking the many that hold it made each turn's work grow with the story (bench:soak,
 * whose every action says "lantern": 61 % of direct turns/s). The story bible's facts and the
 * vectors still answer such a turn. Terms that lose their anchor still count in the score beside an
 * anchor. In a `saturated` story a term its statistics do not keep may be held (see TermStats), and
 * is taken as rare: the terms it keeps are those met first, which every common one is.
 */
export function anchorByRarity(
  query: QueryTerm[],
  holding: Map<string, number>,
  passages: number,
  saturated = false,
): QueryTerm[] {
  const common = Math.max(COMMON_TERM_MIN, passages * COMMON_TERM_SHARE);
  const rare = new Set(
    query
      .filter((q) => {
        const held = holding.get(q.term);
        return q.anchor && (held === undefined ? saturated : held > 0 && held <= common);
      })
      .map((q) => q.term),
  );
  return query.map((q) => ({ ...q, anchor: rare.has(q.term) }));
}

/**
 * The statistics' passages holding each query term, with those a saturated story does not keep
 * counted among the hits: the passages ranked that hold such a term are as many as the story has
 * for a rare one (unless the verbatim window holds more), and fewer for a term held so widely that
 * the newest RANKED_PASSAGES_MAX hits are not all of them.
 */
export function holdingWithHits(
  holding: Map<string, number>,
  query: QueryTerm[],
  hits: PassageHitRow[],
): Map<string, number> {
  const unknown = new Set(query.map((q) => q.term).filter((term) => !holding.has(term)));
  if (unknown.size === 0) return holding;
  const estimated = new Map(holding);
  for (const [, , , terms] of hits)
    for (const term of terms) if (unknown.has(term)) estimated.set(term, (estimated.get(term) ?? 0) + 1);
  return estimated;
}

/** Named as the context record names a turn (its kind, 'Recalled', says where it was sent). */
function passageTitle(turn: number, role: 'user' | 'assistant'): string {
  if (turn === 0) return 'The opening';
  return `Turn ${turn}: ${role === 'user' ? 'your action' : 'the narrator'}`;
}

/** Why a vector neighbour was chosen: how near in meaning, and its rank among the neighbours. */
export const nearReason = (similarity: number, rank: number, ranked: number) =>
  `near in meaning (similarity ${similarity.toFixed(2)}), rank ${rank} of ${ranked}`;

/** A recall candidate: its passage and why it was chosen. */
interface Candidate {
  id: number;
  reason: string;
}

/** The passages full text ranks, best first: those matching an anchoring term, by BM25. */
export async function rankByFullText(input: FullTextInput): Promise<RankedPassage[]> {
  const { query } = input;
  if (query.length === 0) return [];
  const terms = query.map((q) => q.term);
  const stats = await input.repos.memoryBank.termStats(input.storyId, terms);
  const holding = new Map(Object.entries(stats.holding));
  const anchored = anchorByRarity(query, holding, stats.passages, stats.saturated);
  const anchors = anchored.filter((q) => q.anchor).map((q) => q.term);
  if (anchors.length === 0) return [];
  const hits = await input.repos.memoryBank.hits(input.storyId, input.beforeId, terms, anchors, RANKED_PASSAGES_MAX);
  const held = stats.saturated ? holdingWithHits(holding, query, hits) : holding;
  return rankByBm25(
    hits.map(([id, messageId, length, hitTerms, counts]) => ({
      id,
      messageId,
      length,
      frequencies: new Map(hitTerms.map((term, i) => [term, counts[i]])),
    })),
    { passages: stats.passages, meanLength: stats.passages > 0 ? stats.length / stats.passages : 0, holding: held },
    anchored,
  );
}

/**
 * The candidates, best first: full text's above its floor, fused by reciprocal rank with the vector
 * neighbours when the turn has them (fusion.ts), each with the reasons of the rankings that hold it.
 */
function chooseCandidates(ranked: RankedPassage[], neighbours: NearVector[]): Candidate[] {
  const floor = ranked.length > 0 ? ranked[0].score * RELATIVE_SCORE_FLOOR : 0;
  const near = neighbours.filter((n) => n.similarity >= (neighbours[0]?.similarity ?? 0) * VECTOR_RELATIVE_FLOOR);
  const byText = ranked.slice(0, RECALL_CANDIDATES).filter((r) => r.score >= floor);
  const textReason = (r: RankedPassage, rank: number) => matchedReason(r.matched, rank, ranked.length);
  if (near.length === 0) return byText.map((r, i) => ({ id: r.id, reason: textReason(r, i + 1) }));
  const vectors = near.map((n) => ({ id: n.passageId, messageId: n.messageId }));
  const textById = new Map(byText.map((r) => [r.id, r]));
  return fuseByReciprocalRank([byText, vectors])
    .slice(0, RECALL_CANDIDATES)
    .map((fused) => {
      const [textRank, vectorRank] = fused.ranks;
      const reasons: string[] = [];
      if (textRank !== null) reasons.push(textReason(textById.get(fused.id)!, textRank));
      if (vectorRank !== null) reasons.push(nearReason(near[vectorRank - 1].similarity, vectorRank, neighbours.length));
      return { id: fused.id, reason: reasons.join('; ') };
    });
}

export async function recallPassages(input: RecallInput): Promise<Recall> {
  if (input.budgetTokens <= 0) return NO_RECALL;
  const { query } = input;
  const near = input.near ?? [];
  if (query.length === 0 && near.length === 0) return NO_RECALL;
  const ranked = await (input.ranked ?? rankByFullText(input));
  const candidates = chooseCandidates(ranked, near);
  if (candidates.length === 0) return NO_RECALL;
  const texts = new Map(
    (
      await input.repos.memoryBank.passageTexts(
        input.storyId,
        candidates.map((c) => c.id),
      )
    ).map((t) => [t.id, t]),
  );
  const sent: Array<{ order: [number, number]; text: string; block: ContextBlock }> = [];
  const left: ContextBlock[] = [];
  let used = 0;
  candidates.forEach((candidate) => {
    const passage = texts.get(candidate.id);
    if (!passage) return;
    const text = recallBlock(passage.turn, passage.role, passage.text);
    const tokens = input.count(text);
    const cost = tokens + (sent.length > 0 ? input.joinerTokens : 0);
    const block: ContextBlock = {
      kind: 'passage',
      title: passageTitle(passage.turn, passage.role),
      tokens,
      included: 'full',
      reason: candidate.reason,
      messageId: passage.messageId,
    };
    if (used + cost > input.budgetTokens) {
      left.push({ ...block, included: 'dropped', reason: `${block.reason}; no room in the memory budget` });
      return;
    }
    used += cost;
    sent.push({ order: [passage.messageId, passage.id], text, block });
  });
  sent.sort((a, b) => a.order[0] - b.order[0] || a.order[1] - b.order[1]);
  return {
    texts: sent.map((s) => s.text),
    blocks: [...sent.map((s) => s.block), ...left],
    ranked: ranked.length,
    near: near.length,
  };
}
