// Which story cards reach the narrator on a turn, and why each listed one did or did not. Reads the
// cards' heads (no content), works out from the story's shown replies which were on lately (for
// sticky, cooldown and delay), matches keys in the new action and the recent messages, and fits the
// candidates into the cards' share of the prompt; only the contents that can be sent are read. Then
// one level of recursion: the recursive cards that were sent (whole or cut, the first
// RECURSION_SOURCES_MAX in the budget's order) are scanned as sent for other cards' keys, and the
// cards they name are fitted into the room the first ones left, so a card found that way never
// displaces one already sent; their own contents are not scanned. A turn's card work is so bounded
// by the cards times the texts scanned (the window's, and at most RECURSION_SOURCES_MAX contents),
// never by cards × cards. Cards whose keys did not come up are not listed: the record stays as
// small as what was considered. The always-on cards come first in the budget's order, and need no
// history: they are fitted, and what they name found, while the history is on its way (when the
// kept records of card-history.ts do not answer it at once).
import type { Repositories } from '@server/db/repositories';
import type { CardHead } from '@server/db/repositories/story-cards';
import { cardBlock } from '@server/ai/llm/prompts';
import { BoundedCache } from '@server/kernel/bounded-cache';
import { CARD_SCAN_DEPTH_MAX, type ContextBlock } from '@shared/schemas/story-cards';
import { budgetOrder, fitCards, type CardCandidate, type FittedCard } from './budget';
import type { CardHeads } from './card-heads';
import { recentCardHistory, type WindowMessage } from './card-history';
import { createCardScanner, type KeyHit } from './matching';
import { cardTiming, historyTurnsNeeded, indexHistory, type CardHistoryTurn } from './timing';

/**
 * Sent recursive cards whose contents a turn scans at most. A content is scanned as one more
 * message would be, and a card scans at most CARD_SCAN_DEPTH_MAX messages besides the action: so
 * recursion costs a turn no more than its cards' look at the window can.
 */
export const RECURSION_SOURCES_MAX = CARD_SCAN_DEPTH_MAX;

export interface TurnCardsInput {
  storyId: number;
  /** The story's cards_version as the turn read it (its heads may come from `cardHeads`). */
  cardsVersion: number;
  /** The action being answered: history is read from the replies before it. */
  actionId: number;
  /** The turn's window (the newest shown messages before the action, oldest first): its replies' kept records are the history when they suffice. */
  window: WindowMessage[];
  turn: number;
  /** The new action first, then the messages before it, newest first. */
  texts: string[];
  /** What texts[0] is called in a reason: 'your action', or 'the premise' on the opening. */
  actionLabel: string;
  /** The cards' share of the prompt's room (worked out only when the story has cards). */
  budgetTokens: () => number;
  count: (text: string) => number;
  /** Tokens between two texts joined into one message. */
  joinerTokens: number;
}

export interface TurnCards {
  /** The always-on cards' texts, for the prompt's stable head. */
  headTexts: string[];
  /** The texts of the cards that came up, for the volatile tail next to the action. */
  tailTexts: string[];
  blocks: { head: ContextBlock[]; tail: ContextBlock[] };
  /** For the record's history: the cards whose key (or another card) brought them in, and every card on. */
  keyed: number[];
  on: number[];
  /** Whether the story's cards look back (sticky, cooldown): only then is this turn's record read back by the next. */
  timed: boolean;
}

const NONE: TurnCards = {
  headTexts: [],
  tailTexts: [],
  blocks: { head: [], tail: [] },
  keyed: [],
  on: [],
  timed: false,
};

function keyReason(hit: KeyHit, actionLabel: string): string {
  const where =
    hit.distance === 0
      ? `in ${actionLabel}`
      : hit.distance === 1
        ? 'in the last message'
        : `${hit.distance} messages back`;
  return `key '${hit.key}' ${where}`;
}

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

/** What a turn needs of a story's heads beyond the heads themselves, made once per heads list (one version of its cards). */
interface HeadsIndex {
  byId: Map<number, CardHead>;
  /** The cards a key may bring in (not always on), in the heads' order: one list object, so matching keeps its answers per text. */
  keyable: CardHead[];
  /** Turns of history the cards' sticky and cooldown need (0: none). */
  historyTurns: number;
}
const headsIndexes = new WeakMap<CardHead[], HeadsIndex>();

function indexHeads(heads: CardHead[]): HeadsIndex {
  let index = headsIndexes.get(heads);
  if (!index) {
    const timed = heads.filter((card) => card.sticky > 0 || card.cooldown > 0);
    index = {
      byId: new Map(heads.map((card) => [card.id, card])),
      keyable: heads.filter((card) => !card.alwaysOn),
      historyTurns: timed.length > 0 ? historyTurnsNeeded(timed) : 0,
    };
    headsIndexes.set(heads, index);
  }
  return index;
}

/** One fitting of candidates into a room: the fates of those read, and those past the room, left unread. */
interface Pass {
  fitted: FittedCard[];
  unread: CardCandidate[];
  /**
   * The room the reading was bounded by, and what the cards read were expected to cost (their heads'
   * tokens): past the room, a pass going on from this one reads nothing.
   */
  limit: number;
  expected: number;
}

export async function chooseTurnCards(
  repos: Repositories,
  cardHeads: CardHeads,
  input: TurnCardsInput,
): Promise<TurnCards> {
  const heads = await cardHeads.of(input.storyId, input.cardsVersion);
  if (heads.length === 0) return NONE;
  const budgetTokens = input.budgetTokens();
  const { byId, keyable, historyTurns } = indexHeads(heads);
  // Asked first, and awaited only once the work that needs no history is done (matching the keys,
  // fitting the always-on cards, what they name): the database answers meanwhile.
  const reading: Promise<CardHistoryTurn[]> =
    historyTurns > 0
      ? recentCardHistory(repos, cardHeads, {
          storyId: input.storyId,
          actionId: input.actionId,
          turn: input.turn,
          turns: historyTurns,
          window: input.window,
        })
      : Promise.resolve([]);
  const scanner = createCardScanner(input.texts);
  const hits = scanner.matchAll(keyable);
  const alwaysOn: CardCandidate[] = [];
  const notSent: Array<{ card: CardHead; reason: string }> = [];
  for (const card of heads) {
    if (!card.alwaysOn) continue;
    if (card.enabled) alwaysOn.push({ ...candidate(card, 'always on'), distance: -1 });
    else notSent.push({ card, reason: 'always on, but disabled' });
  }

  /**
   * Fits `list` (sorted here into the budget's order) into `room`, reading only the contents that
   * may fit. Two passes in turn (the always-on cards first, as the budget's order puts them) read
   * and fit as one pass over them all would: `after` is the pass this one goes on from.
   */
  const fit = async (list: CardCandidate[], room: number, after?: Pass): Promise<Pass> => {
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
  };
  const spent = (pass: Pass) => pass.fitted.reduce((sum, f) => sum + (f.included === 'dropped' ? 0 : f.tokens), 0);
  const recursiveSent = (pass: Pass) =>
    pass.fitted.filter((f) => f.included !== 'dropped' && byId.get(f.card.id)?.recursive);
  /** The cards that may be found by recursion which these sources name, each with the first source naming it. */
  const namedBy = (sources: FittedCard[]) => {
    const named = new Map<number, FittedCard>();
    if (sources.length === 0) return named;
    const first = scanner.namedIn(
      keyable,
      sources.map((s) => s.content),
    );
    for (const [at, card] of keyable.entries())
      if (card.enabled && first[at] !== -1) named.set(card.id, sources[first[at]]);
    return named;
  };

  const standing = await fit(alwaysOn, budgetTokens);
  // What the sent always-on cards name (the first sources, in the budget's order), for every card
  // that may be found so.
  const firstSources = recursiveSent(standing).slice(0, RECURSION_SOURCES_MAX);
  const named = namedBy(firstSources);

  const history = indexHistory(await reading, input.turn);
  const candidates: CardCandidate[] = [];
  const keyed = new Set<number>();
  const sticky = new Set<number>();
  for (const [at, card] of keyable.entries()) {
    const hit = hits[at];
    const timing = cardTiming(card, input.turn, hit !== null, history);
    if (timing.state === 'off') continue;
    if (!card.enabled) {
      if (hit) notSent.push({ card, reason: `disabled (${keyReason(hit, input.actionLabel)})` });
      continue;
    }
    if (timing.state === 'blocked') notSent.push({ card, reason: timing.reason });
    else if (timing.state === 'sticky') {
      sticky.add(card.id);
      candidates.push({ ...candidate(card, `sticky ${timing.turnsAgo} of ${timing.of}`), distance: timing.turnsAgo });
    } else if (hit) {
      keyed.add(card.id);
      candidates.push({ ...candidate(card, keyReason(hit, input.actionLabel)), distance: hit.distance });
    }
  }

  const coming = await fit(candidates, budgetTokens - spent(standing), standing);
  const namedLater = namedBy(recursiveSent(coming).slice(0, RECURSION_SOURCES_MAX - firstSources.length));
  const found: CardCandidate[] = [];
  if (named.size + namedLater.size > 0) {
    const inPlay = new Set([...candidates.map((c) => c.id), ...notSent.map((n) => n.card.id)]);
    for (const card of keyable) {
      if (inPlay.has(card.id)) continue;
      // What the narrator is sent of a source names the card: a part cut away does not.
      const source = named.get(card.id) ?? namedLater.get(card.id);
      if (!source) continue;
      const timing = cardTiming(card, input.turn, true, history);
      if (timing.state === 'blocked') notSent.push({ card, reason: timing.reason });
      else {
        keyed.add(card.id);
        found.push({ ...candidate(card, `named in card '${source.card.name}'`), distance: source.card.distance });
      }
    }
  }
  const roomLeft = budgetTokens - spent(standing) - spent(coming);
  const passes = [standing, coming];
  if (found.length > 0) passes.push(await fit(found, roomLeft));

  // Ranked in the order the cards were fitted: the always-on ones, the others, then those recursion found.
  const ranked = [...alwaysOn, ...candidates, ...found];
  const rank = new Map(ranked.map((c, i) => [c.id, i + 1]));
  const noRoom = (c: CardCandidate) => `no room: priority ${rank.get(c.id)} of ${ranked.length}`;

  const out: TurnCards = {
    headTexts: [],
    tailTexts: [],
    blocks: { head: [], tail: [] },
    keyed: [...keyed],
    on: [],
    timed: historyTurns > 0,
  };
  const tailDropped: ContextBlock[] = [];
  for (const pass of passes) {
    for (const f of pass.fitted) {
      const block: ContextBlock = {
        kind: 'card',
        title: f.card.name,
        tokens: f.tokens,
        included: f.included,
        reason: f.included === 'dropped' ? noRoom(f.card) : f.reason,
        cardId: f.card.id,
      };
      if (f.included !== 'dropped') (f.card.alwaysOn ? out.headTexts : out.tailTexts).push(f.text);
      if (f.card.alwaysOn) out.blocks.head.push(block);
      else if (f.included === 'dropped') tailDropped.push(block);
      else out.blocks.tail.push(block);
    }
    // Past the room unread: what they would have cost, without reading them.
    for (const c of pass.unread) {
      const block: ContextBlock = {
        kind: 'card',
        title: c.name,
        tokens: (byId.get(c.id)?.tokens ?? 0) + input.joinerTokens,
        included: 'dropped',
        reason: noRoom(c),
        cardId: c.id,
      };
      (c.alwaysOn ? out.blocks.head : tailDropped).push(block);
    }
  }
  for (const { card, reason } of notSent) {
    const block: ContextBlock = {
      kind: 'card',
      title: card.name,
      tokens: card.tokens + input.joinerTokens,
      included: 'dropped',
      reason,
      cardId: card.id,
    };
    (card.alwaysOn ? out.blocks.head : tailDropped).push(block);
  }
  out.blocks.tail.push(...tailDropped);
  out.on = [...new Set([...keyed, ...sticky])];
  return out;
}

function candidate(card: CardHead, reason: string): CardCandidate {
  return {
    id: card.id,
    name: card.name,
    content: '',
    priority: card.priority,
    alwaysOn: card.alwaysOn,
    distance: 0,
    reason,
  };
}
