// Story-card budget: one policy for which cards reach the narrator when their share of the prompt is
// short. Always-on cards come first (the story's standing facts), then the player's priorities, then
// the cards whose keys came up most recently. A card that does not fit whole is cut back to whole
// sentences rather than dropped, and every card's fate carries a reason the context record can show.
import { BoundedCache } from '@server/kernel/bounded-cache';

export interface CardCandidate {
  id: number;
  name: string;
  content: string;
  priority: number;
  alwaysOn: boolean;
  /** How recently its key came up (0: the new action, larger is older); always-on cards: -1. */
  distance: number;
  /** Why it is a candidate, e.g. "key 'Bessie' in your action", "always on", "sticky 2 of 3". */
  reason: string;
}

/**
 * A candidate's fate: its text as sent and what it cost (count + overhead). A dropped card keeps its
 * full text and full cost: what it would have taken, as the context record shows dropped blocks.
 */
export interface FittedCard {
  card: CardCandidate;
  /** Its content as sent: whole, or cut to its first sentences (a dropped card: whole). */
  content: string;
  text: string;
  tokens: number;
  included: 'full' | 'partial' | 'dropped';
  reason: string;
}

/** Cut contents whose sentence ends are kept: a few dozen stories' worth of cards cut on every turn. */
const ENDS_KEPT = 500;

/** What ends a sentence: a run of these, then any closing quotes or brackets, before whitespace. */
const STOPS = new Set(['.', '!', '?', '…']);
const CLOSERS = new Set(['"', "'", '”', '’', '»', ')', ']', '}']);
const SPACE = /\s/;
const isSpace = (char: string) => SPACE.test(char);

/**
 * Where each sentence of the content ends (exclusive, trailing space not counted); the last is the
 * content's end. A sentence ends after . ! ? … (then any closing quotes or brackets) before
 * whitespace, or before a paragraph break (two newlines with only spaces between). One pass: a run
 * of punctuation is read once whatever follows it (the pattern this replaces backtracked over it,
 * quadratic in its length), and a paragraph break looks back over its spaces no further than the
 * previous end, so every character is looked at a bounded number of times; `meter` counts them.
 */
export function sentenceEnds(content: string, meter?: { steps: number }): number[] {
  const text = content.trimEnd();
  const ends: number[] = [];
  const keep = (end: number) => {
    if (end > 0 && end > (ends.at(-1) ?? 0) && end < text.length) ends.push(end);
  };
  let steps = 0;
  /** Where the last sentence end or paragraph break found ended. */
  let floor = 0;
  let at = 0;
  while (at < text.length) {
    const char = text[at];
    let next = at + 1;
    if (STOPS.has(char)) {
      while (next < text.length && STOPS.has(text[next])) next++;
      while (next < text.length && CLOSERS.has(text[next])) next++;
      if (next < text.length && isSpace(text[next])) {
        keep(next);
        floor = next;
      }
    } else if (char === '\n') {
      while (next < text.length && text[next] !== '\n' && isSpace(text[next])) next++;
      if (next < text.length && text[next] === '\n') {
        // A paragraph break ends the sentence before it, less that sentence's trailing spaces.
        let end = at;
        while (end > floor && isSpace(text[end - 1])) end--;
        steps += at - end;
        if (end > floor) keep(end);
        next += 1;
        floor = next;
      }
    }
    steps += next - at;
    at = next;
  }
  ends.push(text.length);
  if (meter) meter.steps += steps;
  return ends;
}

/** The budget's order: always-on first, then higher priority, then nearer distance, then lower id. */
export const budgetOrder = (a: CardCandidate, b: CardCandidate) =>
  Number(b.alwaysOn) - Number(a.alwaysOn) || b.priority - a.priority || a.distance - b.distance || a.id - b.id;

/**
 * Fits the candidates into budgetTokens: always-on first, then higher priority, then nearer distance, then lower id.
 * Each card's text is render(name, content) and costs count(text) + overheadTokens. A card that fits is 'full' (its reason unchanged).
 * One that does not is trimmed at a sentence boundary (the longest prefix of whole sentences of its content that fits, rendered
 * again and recounted) → 'partial', reason `${reason}; trimmed to fit: ${tokens} of ${fullTokens} tokens`; when not even its first
 * sentence fits it is 'dropped', reason `no room: priority ${rank} of ${n}` (rank = its 1-based place in the order, n = candidates).
 * Cards after a partial one still get their chance in the room left. Output in the order decided.
 */
/**
 * Sentence ends of the contents cut lately, by content: a card too long for its room (an always-on
 * one, say) is cut on every turn, and its sentences are the same every time. Keyed by the content
 * string, whose hash the engine keeps: a turn's contents are the same strings turn after turn.
 */
const endsOfContents = new BoundedCache<string, number[]>(ENDS_KEPT);

function sentenceEndsOf(content: string): number[] {
  return endsOfContents.getOrSet(content, sentenceEnds);
}

export function fitCards(
  candidates: CardCandidate[],
  budgetTokens: number,
  count: (text: string) => number,
  render: (name: string, content: string) => string,
  overheadTokens = 0,
): FittedCard[] {
  const ordered = [...candidates].sort(budgetOrder);
  let room = Math.max(0, budgetTokens);
  return ordered.map((card, index): FittedCard => {
    const text = render(card.name, card.content);
    const fullTokens = count(text) + overheadTokens;
    if (fullTokens <= room) {
      room -= fullTokens;
      return { card, content: card.content, text, tokens: fullTokens, included: 'full', reason: card.reason };
    }
    const trimmed = longestFittingPrefix(card, room, count, render, overheadTokens);
    if (!trimmed) {
      return {
        card,
        content: card.content,
        text,
        tokens: fullTokens,
        included: 'dropped',
        reason: `no room: priority ${index + 1} of ${ordered.length}`,
      };
    }
    room -= trimmed.tokens;
    return {
      card,
      content: trimmed.content,
      text: trimmed.text,
      tokens: trimmed.tokens,
      included: 'partial',
      reason: `${card.reason}; trimmed to fit: ${trimmed.tokens} of ${fullTokens} tokens`,
    };
  });
}

/**
 * The card cut to its longest run of whole sentences (fewer than all) that fits the room, or null when
 * not even the first does. A binary search over the sentence count: a few counts however long the card.
 */
function longestFittingPrefix(
  card: CardCandidate,
  room: number,
  count: (text: string) => number,
  render: (name: string, content: string) => string,
  overheadTokens: number,
): { content: string; text: string; tokens: number } | null {
  const ends = sentenceEndsOf(card.content);
  const cut = (sentences: number) => {
    const content = card.content.slice(0, ends[sentences - 1]);
    const text = render(card.name, content);
    return { content, text, tokens: count(text) + overheadTokens };
  };
  let best: { content: string; text: string; tokens: number } | null = null;
  let low = 1;
  let high = ends.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const attempt = cut(middle);
    if (attempt.tokens <= room) {
      best = attempt;
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  return best;
}
