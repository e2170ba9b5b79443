// Fitting candidates into a room while reading only the contents that may fit: one pass per group
// a turn fits in turn (the always-on cards, the cards that came up, those recursion found). Two
// passes in turn read and fit as one pass over them all would. A card's block is kept rendered
// while its name and content are the same, so counting it is a lookup of a string already hashed.
import type { CardHead } from '@server/db/repositories/story-cards';
import { cardBlock } from '@server/ai/llm/prompts';
import { BoundedCache } from '@server/kernel/bounded-cache';
import { budgetOrder, fitCards, type CardCandidate, type FittedCard } from '../budget';
import type { CardHeads } from '../card-heads';
import type { TurnCardsInput } from './types';

/** Card blocks kept rendered: about what the content caches of card-heads.ts hold of a few dozen stories' turns. */
const BLOCKS_KEPT = 2000;
const renderedBlocks = new BoundedCache<string, { name: string; text: string }>(BLOCKS_KEPT);

/**
 * A card's block as sent, the one rendered last time while its name and content are the same: the
 * same string then, so counting it is one lookup of a string whose hash is known, where a block
 * made afresh each turn was hashed whole again (an always-on card's thousands of characters).
 */
function renderedBlock(name: string, content: string): string {
  const kept = renderedBlocks.peek(content);
  if (kept?.name === name) return kept.text;
  return renderedBlocks.set(content, { name, text: cardBlock(name, content) }).text;
}

/** One fitting of candidates into a room: the fates of those read, and those past the room, left unread. */
export interface Pass {
  fitted: FittedCard[];
  unread: CardCandidate[];
  /**
   * The room the reading was bounded by, and what the cards read were expected to cost (their heads'
   * tokens): past the room, a pass going on from this one reads nothing.
   */
  limit: number;
  expected: number;
}

/**
 * Fits `list` (sorted here into the budget's order) into `room`, reading only the contents that
 * may fit. Two passes in turn (the always-on cards first, as the budget's order puts them) read
 * and fit as one pass over them all would: `after` is the pass this one goes on from.
 */
export async function fitPass(
  cardHeads: CardHeads,
  input: Pick<TurnCardsInput, 'storyId' | 'cardsVersion' | 'count' | 'joinerTokens'>,
  byId: ReadonlyMap<number, CardHead>,
  list: CardCandidate[],
  room: number,
  after?: Pass,
): Promise<Pass> {
  list.sort(budgetOrder);
  const ids: number[] = [];
  const limit = after?.limit ?? room;
  let expected = after?.expected ?? 0;
  for (const c of list) {
    // One past the room: it may still go in cut.
    if (expected > limit) break;
    ids.push(c.id);
    expected += (byId.get(c.id)?.tokens ?? 0) + input.joinerTokens;
  }
  const contents =
    ids.length > 0 ? await cardHeads.contents(input.storyId, input.cardsVersion, ids) : new Map<number, string>();
  const readable = list.filter((c) => contents.has(c.id));
  for (const c of readable) c.content = contents.get(c.id) ?? '';
  return {
    fitted: fitCards(readable, room, input.count, renderedBlock, input.joinerTokens),
    unread: list.filter((c) => !contents.has(c.id)),
    limit,
    expected,
  };
}

/** The tokens a pass's sent cards take of the room. */
export const spent = (pass: Pass) => pass.fitted.reduce((sum, f) => sum + (f.included === 'dropped' ? 0 : f.tokens), 0);
