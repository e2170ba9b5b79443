// What choosing a turn's cards is given and what it answers, shared by the steps of the choice
// (heads, passes, candidates, recursion, blocks) and the door that runs them in order.
import type { ContextBlock } from '@shared/schemas/story-cards';
import type { WindowMessage } from '../card-history';

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
