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
// small as what was considered.
import type { Repositories } from '@server/db/repositories';
import type { CardHead } from '@server/db/repositories/story-cards';
import { cardBlock } from '@server/ai/llm/prompts';
import { CARD_SCAN_DEPTH_MAX, type ContextBlock } from '@shared/schemas/story-cards';
import { budgetOrder, fitCards, type CardCandidate, type FittedCard } from './budget';
import type { CardHeads } from './card-heads';
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
}

const NONE: TurnCards = { headTexts: [], tailTexts: [], blocks: { head: [], tail: [] }, keyed: [], on: [] };

function keyReason(hit: KeyHit, actionLabel: string): string {
  const where =
    hit.distance === 0
      ? `in ${actionLabel}`
      : hit.distance === 1
        ? 'in the last message'
        : `${hit.distance} messages back`;
  return `key '${hit.key}' ${where}`;
}

/** One fitting of candidates into a room: the fates of those read, and those past the room, left unread. */
interface Pass {
  fitted: FittedCard[];
  unread: CardCandidate[];
}

export async function chooseTurnCards(
  repos: Repositories,
  cardHeads: CardHeads,
  input: TurnCardsInput,
): Promise<TurnCards> {
  const heads = await cardHeads.of(input.storyId, input.cardsVersion);
  if (heads.length === 0) return NONE;
  const budgetTokens = input.budgetTokens();
  const timed = heads.filter((card) => card.sticky > 0 || card.cooldown > 0);
  // Read while the keys are matched: the database works in its own thread meanwhile.
  const reading: Promise<CardHistoryTurn[]> =
    timed.length > 0
      ? repos.storyCards.cardHistory(input.storyId, input.actionId, input.turn, historyTurnsNeeded(timed))
      : Promise.resolve([]);
  const scanner = createCardScanner(input.texts);
  const hits = new Map(heads.map((card) => [card.id, card.alwaysOn ? null : scanner.match(card)]));
  const history = indexHistory(await reading, input.turn);
  const byId = new Map(heads.map((card) => [card.id, card]));
  const candidates: CardCandidate[] = [];
  const notSent: Array<{ card: CardHead; reason: string }> = [];
  const keyed = new Set<number>();
  const sticky = new Set<number>();

  for (const card of heads) {
    if (card.alwaysOn) {
      if (card.enabled) candidates.push({ ...candidate(card, 'always on'), distance: -1 });
      else notSent.push({ card, reason: 'always on, but disabled' });
      continue;
    }
    const hit = hits.get(card.id) ?? null;
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

  /** Fits `list` (sorted here into the budget's order) into `room`, reading only the contents that may fit. */
  const fit = async (list: CardCandidate[], room: number): Promise<Pass> => {
    list.sort(budgetOrder);
    const ids: number[] = [];
    let tokens = 0;
    for (const c of list) {
      // One past the room: it may still go in cut.
      if (tokens > room) break;
      ids.push(c.id);
      tokens += (byId.get(c.id)?.tokens ?? 0) + input.joinerTokens;
    }
    const contents = await cardHeads.contents(input.storyId, input.cardsVersion, ids);
    const readable = list.filter((c) => contents.has(c.id));
    for (const c of readable) c.content = contents.get(c.id) ?? '';
    return {
      fitted: fitCards(readable, room, input.count, cardBlock, input.joinerTokens),
      unread: list.filter((c) => !contents.has(c.id)),
    };
  };

  const first = await fit(candidates, budgetTokens);
  const sent = first.fitted.filter((f) => f.included !== 'dropped');
  const sources = sent.filter((f) => byId.get(f.card.id)?.recursive).slice(0, RECURSION_SOURCES_MAX);
  const found: CardCandidate[] = [];
  if (sources.length > 0) {
    const inPlay = new Set([...candidates.map((c) => c.id), ...notSent.map((n) => n.card.id)]);
    for (const card of heads) {
      if (inPlay.has(card.id) || card.alwaysOn || !card.enabled) continue;
      // What the narrator is sent of a source names the card: a part cut away does not.
      const source = sources.find((s) => scanner.matchText(card, s.content) !== null);
      if (!source) continue;
      const timing = cardTiming(card, input.turn, true, history);
      if (timing.state === 'blocked') notSent.push({ card, reason: timing.reason });
      else {
        keyed.add(card.id);
        found.push({ ...candidate(card, `named in card '${source.card.name}'`), distance: source.card.distance });
      }
    }
  }
  const roomLeft = budgetTokens - sent.reduce((sum, f) => sum + f.tokens, 0);
  const passes = found.length > 0 ? [first, await fit(found, roomLeft)] : [first];

  // Ranked in the order the cards were fitted: the first ones, then those recursion found.
  const ranked = [...candidates, ...found];
  const rank = new Map(ranked.map((c, i) => [c.id, i + 1]));
  const noRoom = (c: CardCandidate) => `no room: priority ${rank.get(c.id)} of ${ranked.length}`;

  const out: TurnCards = { headTexts: [], tailTexts: [], blocks: { head: [], tail: [] }, keyed: [...keyed], on: [] };
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
