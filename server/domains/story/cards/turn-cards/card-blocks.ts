// A turn's chosen cards as the prompt and the context record take them: the sent cards' texts (the
// always-on ones for the stable head, the others for the tail), and a block for every card
// considered, sent or not, with why. A dropped card is ranked in the order the cards were fitted;
// one past the room, never read, is listed at what its head says it would cost.
import type { CardHead } from '@server/db/repositories/story-cards';
import type { ContextBlock } from '@shared/schemas/story-cards';
import type { CardCandidate } from '../budget';
import type { Choice } from './card-candidates';
import type { Pass } from './card-passes';
import type { TurnCards } from './types';

export function turnCardsOf(
  choice: Choice,
  passes: Pass[],
  byId: ReadonlyMap<number, CardHead>,
  joinerTokens: number,
  timed: boolean,
): TurnCards {
  // Ranked in the order the cards were fitted: the always-on ones, the others, then those recursion found.
  const ranked = [...choice.alwaysOn, ...choice.candidates, ...choice.found];
  const rank = new Map(ranked.map((c, i) => [c.id, i + 1]));
  const noRoom = (c: CardCandidate) => `no room: priority ${rank.get(c.id)} of ${ranked.length}`;

  const out: TurnCards = {
    headTexts: [],
    tailTexts: [],
    blocks: { head: [], tail: [] },
    keyed: [...choice.keyed],
    on: [],
    timed,
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
        tokens: (byId.get(c.id)?.tokens ?? 0) + joinerTokens,
        included: 'dropped',
        reason: noRoom(c),
        cardId: c.id,
      };
      (c.alwaysOn ? out.blocks.head : tailDropped).push(block);
    }
  }
  for (const { card, reason } of choice.notSent) {
    const block: ContextBlock = {
      kind: 'card',
      title: card.name,
      tokens: card.tokens + joinerTokens,
      included: 'dropped',
      reason,
      cardId: card.id,
    };
    (card.alwaysOn ? out.blocks.head : tailDropped).push(block);
  }
  out.blocks.tail.push(...tailDropped);
  out.on = [...new Set([...choice.keyed, ...choice.sticky])];
  return out;
}
