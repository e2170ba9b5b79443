// A story card as the cards repository reads and writes it: the whole row, the head a turn
// matches by (no content), the fields a write takes, and why a write may be refused.
import type { StoryCardFields } from '@shared/schemas/story-cards';
import type { storyCards } from '../../schema';

export type CardRow = typeof storyCards.$inferSelect;
/** A card without its content: what matching and the budget need. */
export type CardHead = Omit<CardRow, 'content' | 'createdAt' | 'updatedAt' | 'storyId'>;

/** A card's columns as written: its fields and the content's tokens. */
export type CardValues = StoryCardFields & { tokens: number };

/** Why a write of cards was refused, nothing written: the story would pass a limit, or it went meanwhile. */
export type CardsRefusal = 'tooManyCards' | 'tooManyRegexKeys' | 'storyGone';
