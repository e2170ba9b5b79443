// A turn's prompt as the narrator is sent it: the layout of ai/llm/context.ts filled from the story,
// its action and window, with the story cards that come up (cards/turn-cards/) in their share of
// the room, and the story bible's facts (bible/recall-facts.ts), then the passages recalled from the
// memory bank (memory/recall.ts), in the memory budget; and the
// context record of what was sent. One function for the turn service and for bench:cards and
// bench:recall, which mark each phase's end to time it.
import {
  assembleTurnPrompt,
  cardBudget,
  JOINER,
  recallBudget,
  type AssembledPrompt,
  type Budget,
  type Count,
} from '@server/ai/llm/context';
import { memoryText } from '@server/ai/llm/memory-chunks';
import { contextRecord } from '@server/ai/llm/context-record';
import type { Repositories } from '@server/db/repositories';
import type { MessageRecord, StoryRecord } from '@server/db/repositories/stories';
import type { UnfoldedRead } from '@server/db/repositories/story-turn';
import type { NarratorContext } from '@shared/schemas/story-cards';
import type { CardHeads } from './cards/card-heads';
import { chooseTurnCards, type TurnCards } from './cards/turn-cards';
import { NO_FACTS, recallFacts, withHistory, type FactRecall } from './bible';
import { NO_RECALL, rankByFullText, recallPassages, recallQuery, type Recall } from './memory/recall';
import type { VectorRecall } from './memory/vector-recall';

/** What real models are asked on turn 0, where the premise is the action. */
export const OPENING_INSTRUCTION = 'Begin the story: write its opening scene for the player.';

export interface TurnPromptInput {
  repos: Repositories;
  cardHeads: CardHeads;
  budget: Budget;
  /** LLM_CARD_SHARE. */
  cardShare: number;
  /** LLM_RECALL_TOKENS. */
  recallTokens: number;
  /** LLM_AUTHORS_NOTE_DEPTH (the default when not given). */
  authorsNoteDepth?: number;
  count: Count;
  system: string;
  story: StoryRecord;
  action: MessageRecord;
  /** The newest unfolded messages before the action. */
  window: UnfoldedRead;
  /** The memory bank's vectors, when EMBEDDINGS_PROVIDER is set: the action's nearest passages join the recall. */
  vectors?: Pick<VectorRecall, 'search'>;
}

export interface TurnPrompt {
  prompt: AssembledPrompt;
  cards: TurnCards;
  recall: Recall;
  facts: FactRecall;
  /** The context record of this prompt, once the reply's tokens are known. */
  record(outputTokens: number): NarratorContext;
}

export async function buildTurnPrompt(
  input: TurnPromptInput,
  mark: (phase: 'cardBudget' | 'cards' | 'recall' | 'assemble') => void = () => undefined,
): Promise<TurnPrompt> {
  const { story, action, window, budget, count } = input;
  const layout = {
    system: input.system,
    premise: story.premise,
    notes: story.notes,
    recent: window.messages.map((m) => ({ role: m.role, content: m.content })),
    action: action.isInitial ? OPENING_INSTRUCTION : action.content,
  };
  const joinerTokens = count(JOINER);
  // Nothing lies before the window while nothing is folded and the window read it all; and nothing
  // is recalled with LLM_RECALL_TOKENS=0 (no query embedding either).
  const mayRecall = input.recallTokens > 0 && !action.isInitial && (story.memoryThroughId > 0 || window.more);
  /** Only passages before the verbatim window's oldest message (or the action) are recalled. */
  const beforeId = window.messages[0]?.id ?? action.id;
  // The action's vector neighbours are asked for first: the embedding's round trip runs while the
  // cards and facts are chosen, instead of after them.
  const near =
    mayRecall && input.vectors
      ? input.vectors.search({
          userId: story.userId,
          storyId: story.id,
          text: action.content,
          beforeId,
        })
      : undefined;
  // Counted only when the story has cards (its texts' tokens), or when the record is written.
  let cardTokens: number | undefined;
  const cardRoom = () => (cardTokens ??= cardBudget(layout, budget, input.cardShare, count));
  mark('cardBudget');
  const cards = await chooseTurnCards(input.repos, input.cardHeads, {
    storyId: story.id,
    cardsVersion: story.cardsVersion,
    actionId: action.id,
    turn: action.turn,
    window: window.messages,
    texts: [action.content, ...window.messages.map((m) => m.content).reverse()],
    actionLabel: action.isInitial ? 'the premise' : 'your action',
    budgetTokens: cardRoom,
    count,
    joinerTokens,
  });
  mark('cards');
  const cardsSent = [...cards.blocks.head, ...cards.blocks.tail].filter((b) => b.included !== 'dropped');
  const recallRoom = !mayRecall
    ? 0
    : recallBudget(
        layout,
        budget,
        input.recallTokens,
        cardsSent.reduce((sum, b) => sum + b.tokens + joinerTokens, 0),
        count,
      );
  const query =
    recallRoom > 0
      ? recallQuery({
          action: action.content,
          cardNames: cards.blocks.tail.filter((b) => b.included !== 'dropped').map((b) => b.title),
          lastReply: window.messages.findLast((m) => m.role === 'assistant')?.content,
        })
      : [];
  // The story's facts are read, and full text ranks the passages, while the action's embedding is
  // on its way: one wait, not three.
  const shownFacts = recallRoom > 0 ? input.repos.storyBible.shown(story.id) : undefined;
  const ranked =
    query.length > 0 ? rankByFullText({ query, repos: input.repos, storyId: story.id, beforeId }) : undefined;
  // Awaited later (or never): a failure must not surface as an unhandled rejection meanwhile.
  shownFacts?.catch(() => undefined);
  ranked?.catch(() => undefined);
  const nearest = near ? await near : undefined;
  const neighbours = Array.isArray(nearest) ? nearest : undefined;
  // The facts first: pinned ones always (while the budget holds them), then those the turn calls up.
  const facts = shownFacts
    ? recallFacts(withHistory(await shownFacts), query, recallRoom, count, joinerTokens, neighbours)
    : NO_FACTS;
  const recall =
    recallRoom - facts.tokens > 0
      ? await recallPassages({
          query,
          repos: input.repos,
          storyId: story.id,
          beforeId,
          budgetTokens: recallRoom - facts.tokens,
          count,
          joinerTokens,
          near: neighbours,
          ranked,
        })
      : NO_RECALL;
  mark('recall');
  const prompt = assembleTurnPrompt(
    {
      ...layout,
      memory: memoryText(story.memory),
      headCards: cards.headTexts,
      tailCards: cards.tailTexts,
      facts: facts.texts,
      recalled: recall.texts,
      authorsNoteDepth: input.authorsNoteDepth,
    },
    budget,
    count,
  );
  mark('assemble');
  return {
    prompt,
    cards,
    recall,
    facts,
    record: (outputTokens) =>
      contextRecord({
        assembled: prompt,
        systemTokens: count(prompt.system),
        window: window.messages,
        cards: cards.blocks,
        facts: facts.blocks,
        passages: recall.blocks,
        hasMemory: story.memory.length > 0,
        opening: action.isInitial,
        outputTokens,
        windowTokens: budget.prompt,
        cardBudgetTokens: cardRoom(),
        recallBudgetTokens: recallRoom,
        count,
      }),
  };
}
