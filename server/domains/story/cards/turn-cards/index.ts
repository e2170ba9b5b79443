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
// This door runs the steps in that order: heads-index.ts, card-candidates.ts, card-passes.ts,
// recursion.ts, and card-blocks.ts for the answer.
import type { Repositories } from '@server/db/repositories';
import type { CardHeads } from '../card-heads';
import { recentCardHistory } from '../card-history';
import { createCardScanner } from '../matching';
import { indexHistory, type CardHistoryTurn } from '../timing';
import { turnCardsOf } from './card-blocks';
import { alwaysOnChoice, chooseKeyed } from './card-candidates';
import { fitPass, spent } from './card-passes';
import { indexHeads } from './heads-index';
import { findByRecursion, namedBy, RECURSION_SOURCES_MAX, recursiveSent } from './recursion';
import type { TurnCards, TurnCardsInput } from './types';

export { RECURSION_SOURCES_MAX } from './recursion';
export type { TurnCards, TurnCardsInput } from './types';

const NONE: TurnCards = {
  headTexts: [],
  tailTexts: [],
  blocks: { head: [], tail: [] },
  keyed: [],
  on: [],
  timed: false,
};

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
  const choice = alwaysOnChoice(heads);

  const standing = await fitPass(cardHeads, input, byId, choice.alwaysOn, budgetTokens);
  // What the sent always-on cards name (the first sources, in the budget's order), for every card
  // that may be found so.
  const firstSources = recursiveSent(standing, byId).slice(0, RECURSION_SOURCES_MAX);
  const named = namedBy(scanner, keyable, firstSources);

  const history = indexHistory(await reading, input.turn);
  chooseKeyed(choice, keyable, hits, history, input);

  const coming = await fitPass(cardHeads, input, byId, choice.candidates, budgetTokens - spent(standing), standing);
  const namedLater = namedBy(
    scanner,
    keyable,
    recursiveSent(coming, byId).slice(0, RECURSION_SOURCES_MAX - firstSources.length),
  );
  findByRecursion(choice, keyable, named, namedLater, history, input.turn);
  const roomLeft = budgetTokens - spent(standing) - spent(coming);
  const passes = [standing, coming];
  if (choice.found.length > 0) passes.push(await fitPass(cardHeads, input, byId, choice.found, roomLeft));
  return turnCardsOf(choice, passes, byId, input.joinerTokens, historyTurns > 0);
}
