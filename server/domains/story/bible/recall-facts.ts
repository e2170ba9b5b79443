// A turn's facts from the story bible, in the memory budget before the recalled passages: the
// pinned current facts always (while the budget holds them), then the current facts the turn's
// words call up, ranked by BM25 over the story's current facts with the same query as the
// passages (the action, the cards that came up, the last reply). Only current values are sent, each
// with the one it replaced ("formerly Bramble"), so a renamed thing reaches the narrator by its new
// name and the old name in a recalled passage reads as older. The facts are few (the bible's cap),
// so their statistics are counted here, per turn.
import type { Count } from '@server/ai/llm/context';
import { factBlock } from '@server/ai/llm/prompts';
import type { ContextBlock } from '@shared/schemas/story-cards';
import { rankByBm25, type QueryTerm } from '../memory/ranking';
import { matchedReason, RELATIVE_SCORE_FLOOR } from '../memory/recall';
import { termCounts, termsOf } from '../memory/terms';
import type { BibleEntry } from './history';

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
const termsByText = new Map<string, Map<string, number>>();

function factTerms(fact: Pick<BibleEntry, 'entity' | 'attribute' | 'value'>): Map<string, number> {
  const text = `${fact.entity} ${fact.attribute} ${fact.value}`;
  let terms = termsByText.get(text);
  if (!terms) {
    terms = termCounts(termsOf(text));
    if (termsByText.size >= TERMS_KEPT) termsByText.delete(termsByText.keys().next().value!);
    termsByText.set(text, terms);
  }
  return terms;
}

export function recallFacts(
  entries: BibleEntry[],
  query: QueryTerm[],
  budgetTokens: number,
  count: Count,
  joinerTokens: number,
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
  const called = ranked.slice(0, RECALLED_FACTS_MAX).filter((r) => r.score >= floor);

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
  called.forEach((r, i) => offer(byId.get(r.id)!, matchedReason(r.matched, i + 1, ranked.length)));
  const byTurn = (a: { fact: BibleEntry }, b: { fact: BibleEntry }) =>
    a.fact.turn - b.fact.turn || a.fact.id - b.fact.id;
  const ordered = [...sent.slice(0, pinnedSent).sort(byTurn), ...sent.slice(pinnedSent).sort(byTurn)];
  return { texts: ordered.map((s) => s.text), blocks: [...ordered.map((s) => s.block), ...left], tokens: used };
}
