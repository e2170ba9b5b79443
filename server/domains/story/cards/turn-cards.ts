// Which story cards reach the narrator on a turn, and why each listed one did or did not. Reads the
// cards' heads (no content), works out from the story's shown replies which were on lately (for
// sticky, cooldown and delay), matches keys in the new action and the recent messages, follows
// recursion one level, and fits the candidates into the cards' share of the prompt; only the
// contents that can be sent are read. Cards whose keys did not come up are not listed: the record
// stays as small as what was considered.
import type { Repositories } from '@server/db/repositories';
import type { CardHead } from '@server/db/repositories/story-cards';
import { cardBlock } from '@server/ai/llm/prompts';
import type { ContextBlock } from '@shared/schemas/story-cards';
import { fitCards, type CardCandidate } from './budget';
import type { CardHeads } from './card-heads';
import { createCardScanner, type KeyHit } from './matching';
import { cardTiming, historyTurnsNeeded, type CardHistoryTurn } from './timing';

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

/** Candidates in the budget's order: always-on first, then higher priority, nearer, older card. */
const budgetOrder = (a: CardCandidate, b: CardCandidate) =>
  Number(b.alwaysOn) - Number(a.alwaysOn) || b.priority - a.priority || a.distance - b.distance || a.id - b.id;

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
  const history = await reading;
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

  // Contents are read for the cards that can be sent (and the recursive ones, whose content is scanned).
  const contents = new Map<number, string>();
  const readContents = async (ids: number[]) => {
    const missing = ids.filter((id) => !contents.has(id));
    const read = await cardHeads.contents(input.storyId, input.cardsVersion, missing);
    for (const [id, content] of read) contents.set(id, content);
  };
  const sendable = () => {
    candidates.sort(budgetOrder);
    const ids: number[] = [];
    let tokens = 0;
    for (const c of candidates) {
      ids.push(c.id);
      tokens += (byId.get(c.id)?.tokens ?? 0) + input.joinerTokens;
      // One past the budget: it may still go in trimmed.
      if (tokens > budgetTokens) break;
    }
    return ids;
  };

  const recursive = candidates.filter((c) => byId.get(c.id)?.recursive);
  await readContents([...sendable(), ...recursive.map((c) => c.id)]);
  if (recursive.length > 0) {
    // One level: cards named in a sent card's content come up too; their own contents are not scanned.
    const inPlay = new Set([...candidates.map((c) => c.id), ...notSent.map((n) => n.card.id)]);
    for (const card of heads) {
      if (inPlay.has(card.id) || card.alwaysOn || !card.enabled) continue;
      for (const source of recursive) {
        const text = contents.get(source.id);
        if (!text || !scanner.matchText(card, text)) continue;
        const timing = cardTiming(card, input.turn, true, history);
        if (timing.state === 'blocked') notSent.push({ card, reason: timing.reason });
        else {
          keyed.add(card.id);
          candidates.push({ ...candidate(card, `named in card '${source.name}'`), distance: source.distance });
        }
        inPlay.add(card.id);
        break;
      }
    }
    await readContents(sendable());
  }

  candidates.sort(budgetOrder);
  const readable = candidates.filter((c) => contents.has(c.id));
  for (const c of readable) c.content = contents.get(c.id) ?? '';
  const fitted = fitCards(readable, budgetTokens, input.count, cardBlock, input.joinerTokens);
  const rank = new Map(candidates.map((c, i) => [c.id, i + 1]));
  const noRoom = (c: CardCandidate) => `no room: priority ${rank.get(c.id)} of ${candidates.length}`;

  const out: TurnCards = { headTexts: [], tailTexts: [], blocks: { head: [], tail: [] }, keyed: [...keyed], on: [] };
  const tailDropped: ContextBlock[] = [];
  for (const f of fitted) {
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
  // Past the budget unread: what they would have cost, without reading them.
  for (const c of candidates.filter((c) => !contents.has(c.id))) {
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
