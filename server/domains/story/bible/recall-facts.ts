// A turn's facts from the story bible, in the memory budget before the recalled passages: the
// pinned current facts always (while the budget holds them), then the current facts the turn's
// words call up, ranked by BM25 over the story's current facts with the same query as the
// passages (the action, the cards that came up, the last reply). Only current values are sent, each
// with the one it replaced ("formerly Bramble"), so a renamed thing reaches the narrator by its new
// name and the old name in a recalled passage reads as older. The facts are few (the bible's cap),
// so their statistics are counted here, per turn. With embeddings, the passages nearest the action
// in meaning call up the facts of their turns too (a fact is tied to the message it came from; a
// replaced fact answers with its line's current one), fused with the words' ranking by reciprocal
// rank: "I look for my mount" finds the horse's name through the turn that named it.
import type { Count } from '@server/ai/llm/context';
import { factBlock } from '@server/ai/llm/prompts';
import { BoundedCache } from '@server/kernel/bounded-cache';
import type { ContextBlock } from '@shared/schemas/story-cards';
import { fuseByReciprocalRank, type Ranked } from '../memory/fusion';
import { rankByBm25, type QueryTerm } from '../memory/ranking';
import { matchedReason, RELATIVE_SCORE_FLOOR } from '../memory/recall';
import { termCounts, termsOf } from '../memory/terms';
import type { NearVector } from '../memory/vector-cache';
import { lineKey, type BibleEntry } from './history';

/** Facts recalled by the turn's words at most, besides the pinned ones. */
export const RECALLED_FACTS_MAX = 8;

export interface FactRecall {
  /** The facts' texts as sent: pinned first, then recalled, each in story order. */
  texts: string[];
  /** Their context-record blocks (sent, then left out for room). */
  blocks: ContextBlock[];
  /** Tokens the sent facts take, blank lines between them included. */
  tokens: number;
}

export const NO_FACTS: FactRecall = { texts: [], blocks: [], tokens: 0 };

/**
 * Each fact's terms, kept by its text: a story's facts change only at a fold or an edit, and cutting
 * 400 of them into terms on every turn (Intl.Segmenter, the stemmer) cost 20-25 ms a turn. Oldest
 * first out past the cap, so the map is bounded whatever the stories played.
 */
const TERMS_KEPT = 20_000;
const termsByText = new BoundedCache<string, Map<string, number>>(TERMS_KEPT);

function factTerms(fact: Pick<BibleEntry, 'entity' | 'attribute' | 'value'>): Map<string, number> {
  const text = `${fact.entity} ${fact.attribute} ${fact.value}`;
  // Peeked: every fact of a turn's story is read each turn; they are forgotten in the order they came.
  return termsByText.peek(text) ?? termsByText.set(text, termCounts(termsOf(text)));
}

/** Why a fact came with a passage near in meaning: the passage's similarity and rank. */
const nearFactReason = (near: NearVector, rank: number, ranked: number) =>
  `its turn is near in meaning (similarity ${near.similarity.toFixed(2)}), rank ${rank} of ${ranked}`;

/**
 * The current unpinned facts of the neighbours' messages, in the neighbours' order, each once with
 * the neighbour that called it up: a replaced fact's line answers with its current fact.
 */
function factsNear(entries: BibleEntry[], current: BibleEntry[], near: NearVector[]) {
  const byMessage = new Map<number, BibleEntry[]>();
  for (const entry of entries) byMessage.set(entry.messageId, [...(byMessage.get(entry.messageId) ?? []), entry]);
  const currentOfLine = new Map(current.map((e) => [lineKey(e), e]));
  const found = new Map<number, { fact: BibleEntry; near: NearVector; rank: number }>();
  near.forEach((neighbour, i) => {
    for (const entry of byMessage.get(neighbour.messageId) ?? []) {
      const fact = currentOfLine.get(lineKey(entry));
      if (fact && !fact.pinned && !found.has(fact.id)) found.set(fact.id, { fact, near: neighbour, rank: i + 1 });
    }
  });
  return [...found.values()];
}

export function recallFacts(
  entries: BibleEntry[],
  query: QueryTerm[],
  budgetTokens: number,
  count: Count,
  joinerTokens: number,
  /** The passages nearest the action in meaning, best first, when embeddings are on. */
  near: NearVector[] = [],
): FactRecall {
  if (budgetTokens <= 0 || entries.length === 0) return NO_FACTS;
  const byId = new Map(entries.map((e) => [e.id, e]));
  const current = entries.filter((e) => e.current);
  const pinned = current.filter((e) => e.pinned);
  const unpinned = current.filter((e) => !e.pinned);

  // Each fact once as BM25 reads it: its terms, and its length (its terms with repeats).
  const hits = unpinned.map((fact) => {
    const frequencies = factTerms(fact);
    let length = 0;
    for (const n of frequencies.values()) length += n;
    return { id: fact.id, messageId: fact.messageId, length, frequencies };
  });
  const holding = new Map<string, number>();
  for (const { frequencies } of hits)
    for (const term of frequencies.keys()) holding.set(term, (holding.get(term) ?? 0) + 1);
  const totalLength = hits.reduce((sum, hit) => sum + hit.length, 0);
  const ranked = rankByBm25(
    hits,
    { passages: hits.length, meanLength: hits.length > 0 ? totalLength / hits.length : 0, holding },
    query,
  );
  const floor = (ranked[0]?.score ?? 0) * RELATIVE_SCORE_FLOOR;
  const byWords = ranked.slice(0, RECALLED_FACTS_MAX).filter((r) => r.score >= floor);
  const wordReasons = new Map(byWords.map((r, i) => [r.id, matchedReason(r.matched, i + 1, ranked.length)]));
  const nearby = factsNear(entries, current, near);
  const nearReasons = new Map(nearby.map((n) => [n.fact.id, nearFactReason(n.near, n.rank, near.length)]));
  const vectorRanking: Ranked[] = nearby.map((n) => ({ id: n.fact.id, messageId: n.fact.messageId }));
  const called = (nearby.length > 0 ? fuseByReciprocalRank([byWords, vectorRanking]) : byWords)
    .slice(0, RECALLED_FACTS_MAX)
    .map((r) => ({
      id: r.id,
      reason: [wordReasons.get(r.id), nearReasons.get(r.id)].filter(Boolean).join('; '),
    }));

  const sent: Array<{ fact: BibleEntry; text: string; block: ContextBlock }> = [];
  const left: ContextBlock[] = [];
  let used = 0;
  const offer = (fact: BibleEntry, reason: string) => {
    const formerly = fact.supersedes === null ? undefined : byId.get(fact.supersedes)?.value;
    const text = factBlock(fact, formerly);
    const tokens = count(text);
    const block: ContextBlock = {
      kind: 'fact',
      title: `${fact.entity}: ${fact.attribute}`,
      tokens,
      included: 'full',
      reason,
      messageId: fact.messageId,
    };
    const cost = tokens + joinerTokens;
    if (used + cost > budgetTokens) {
      left.push({ ...block, included: 'dropped', reason: `${reason}; no room in the memory budget` });
      return;
    }
    used += cost;
    sent.push({ fact, text, block });
  };
  for (const fact of pinned) offer(fact, 'pinned fact');
  const pinnedSent = sent.length;
  for (const r of called) offer(byId.get(r.id)!, r.reason);
  const byTurn = (a: { fact: BibleEntry }, b: { fact: BibleEntry }) =>
    a.fact.turn - b.fact.turn || a.fact.id - b.fact.id;
  const ordered = [...sent.slice(0, pinnedSent).sort(byTurn), ...sent.slice(pinnedSent).sort(byTurn)];
  return { texts: ordered.map((s) => s.text), blocks: [...ordered.map((s) => s.block), ...left], tokens: used };
}
