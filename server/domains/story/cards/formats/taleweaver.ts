// Taleweaver's own cards file, `{format: 'taleweaver.cards', version: 1, cards}`: each card's fields
// as the card form takes them, so a card the form would refuse is set aside as any format's entry is.
import {
  CARDS_FILE_FORMAT,
  CARDS_FILE_VERSION,
  cardsFileSchema,
  type StoryCardFields,
  type StoryCardInput,
  storyCardFieldsSchema,
} from '@shared/schemas/story-cards';
import { type CheckedCards, checkCards, checkEntryCount, FieldNotes, isRecord } from './entries';
import { CardFileError } from './errors';

const FORMAT = 'a Taleweaver cards file';
/** A card's fields in the form's order: a card handed in with more (its id, its tokens) is written without them. */
const FIELDS = Object.keys(storyCardFieldsSchema.shape) as (keyof StoryCardFields)[];

export const isTaleweaverFile = (file: Record<string, unknown>) => file.format === CARDS_FILE_FORMAT;

export function readTaleweaver(file: Record<string, unknown>, maxCards: number): CheckedCards {
  if (file.version !== CARDS_FILE_VERSION) {
    throw new CardFileError(
      `This is ${FORMAT}, but of version ${JSON.stringify(file.version)}, which Taleweaver cannot read.`,
    );
  }
  if (Array.isArray(file.cards)) checkEntryCount(file.cards.length, maxCards);
  const parsed = cardsFileSchema.safeParse(file);
  if (!parsed.success) throw new CardFileError(`This is ${FORMAT}, but its 'cards' is not a list of cards.`);
  const { cards } = parsed.data;
  if (cards.length === 0) throw new CardFileError(`This is ${FORMAT}, but it has no cards.`);
  const candidates = cards.map((card, index) => ({
    label:
      isRecord(card) && typeof card.name === 'string' && card.name.trim() ? card.name.trim() : `entry ${index + 1}`,
    card: (isRecord(card) ? card : {}) as StoryCardInput,
  }));
  return checkCards(candidates, new FieldNotes());
}

export function writeTaleweaver(cards: StoryCardFields[]): string {
  const fields = cards.map((card) => Object.fromEntries(FIELDS.map((field) => [field, card[field]])));
  return `${JSON.stringify({ format: CARDS_FILE_FORMAT, version: CARDS_FILE_VERSION, cards: fields }, null, 2)}\n`;
}
