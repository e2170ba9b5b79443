// A card's values as they are stored and carried: its own fields (what a file holds), its
// content's tokens (counted a slice at a time, so an import of many cards never holds the event
// loop), and the bytes it adds to the owner's stored text (as migration 0018 counts them).
import type { CardRow } from '@server/db/repositories/story-cards';
import { loadTokenCounter } from '@server/ai/llm/tokenizer';
import type { StoryCardFields } from '@shared/schemas/story-cards';
import { isRegexKey } from './regex-keys';

/** A stored card's own fields, as a file carries them. */
export function cardFields(row: CardRow): StoryCardFields {
  const { id: _id, storyId: _story, tokens: _tokens, createdAt: _c, updatedAt: _u, ...fields } = row;
  return fields;
}

/** Text counted between two turns of the event loop while cards' tokens are counted: a 5 MB file is a few hundred ms of counting. */
const COUNT_SLICE_CHARS = 64 * 1024;

/** The cards with their contents' tokens, counted a slice at a time so other requests go on meanwhile. */
export async function withCardTokens(cards: StoryCardFields[]): Promise<Array<StoryCardFields & { tokens: number }>> {
  const count = await loadTokenCounter();
  const counted: Array<StoryCardFields & { tokens: number }> = [];
  let slice = 0;
  for (const card of cards) {
    counted.push({ ...card, tokens: count(card.content) });
    slice += card.content.length;
    if (slice >= COUNT_SLICE_CHARS) {
      slice = 0;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  return counted;
}

/** What cards add to the stored text (as migration 0018 counts them), for a quota check before writing. */
export function cardBytesOf(cards: StoryCardFields[]): number {
  return cards.reduce(
    (sum, c) =>
      sum +
      Buffer.byteLength(c.name) +
      Buffer.byteLength(JSON.stringify(c.keys)) +
      Buffer.byteLength(JSON.stringify(c.secondaryKeys)) +
      Buffer.byteLength(c.content),
    0,
  );
}

/** A card's regular-expression keys, primary and secondary (a story holds STORY_REGEX_KEYS_MAX at most). */
export const regexKeysOf = (card: { keys: string[]; secondaryKeys: string[] }) =>
  card.keys.filter(isRegexKey).length + card.secondaryKeys.filter(isRegexKey).length;
