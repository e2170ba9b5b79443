// A story's cards, and the context records of its replies. Cards are read in two steps for a turn:
// their heads (keys and settings, no content) to decide which come up, then the contents of those
// that can fit, so a story of 1,000 long cards is never read whole for one turn (card-reads.ts).
// Writes are owner-checked by the caller; the story's limits (its cards, and the regular-expression
// keys they hold between them) are counted inside the writing transaction with the story row
// locked, so writes at once (two tabs, a burst of requests) queue on it and each counts the
// others': none can pass them (add-cards.ts, change-card.ts, regex-keys.ts).
import type { Db } from '../../client';
import type { QuotaCheck } from '../quotas';
import { addCards } from './add-cards';
import { cardContents, cardHeads, getCard, listCards } from './card-reads';
import type { CardValues } from './card-types';
import { removeCard, updateCard } from './change-card';
import type { RegexKeyLimit } from './regex-keys';
import { historyReplies, recordLists, replyContext } from './reply-contexts';

export type { CardHead, CardRow, CardsRefusal, CardValues } from './card-types';
export { copyStoryCards } from './copy-cards';
export type { RegexKeyLimit } from './regex-keys';
export type { CardHistoryRow, LaterWorkRow, ReplyContext } from './reply-contexts';

export function createStoryCardsRepository(db: Db) {
  return {
    list(storyId: number) {
      return listCards(db, storyId);
    },
    heads(storyId: number) {
      return cardHeads(db, storyId);
    },
    contents(storyId: number, ids: number[]) {
      return cardContents(db, storyId, ids);
    },
    get(storyId: number, cardId: number) {
      return getCard(db, storyId, cardId);
    },
    add(
      owner: { userId: number; storyId: number },
      cards: CardValues[],
      now: Date,
      limits: { maxCards: number; quotas: QuotaCheck; regexKeys?: RegexKeyLimit },
    ) {
      return addCards(db, owner, cards, now, limits);
    },
    update(
      owner: { userId: number; storyId: number },
      cardId: number,
      card: CardValues,
      now: Date,
      limits: { quotas: QuotaCheck; regexKeys?: RegexKeyLimit },
    ) {
      return updateCard(db, owner, cardId, card, now, limits);
    },
    remove(storyId: number, cardId: number) {
      return removeCard(db, storyId, cardId);
    },
    context(userId: number, storyId: number, messageId: number, version?: number) {
      return replyContext(db, userId, storyId, messageId, version);
    },
    historyReplies(storyId: number, beforeMessageId: number, turn: number, turns: number) {
      return historyReplies(db, storyId, beforeMessageId, turn, turns);
    },
    recordLists(storyId: number, replies: Array<{ messageId: number; version: number }>) {
      return recordLists(db, storyId, replies);
    },
  };
}
export type StoryCardsRepository = ReturnType<typeof createStoryCardsRepository>;
