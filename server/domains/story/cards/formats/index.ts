// Story cards' files, in and out, as pure functions over bytes and text (no database, no HTTP):
// which format an uploaded file is, by its shape, and its entries as cards; the cards as a file of
// Taleweaver's own format or SillyTavern's World Info. Reading runs in the import worker
// (files/import-worker.ts), off the event loop; the routes turn CardFileError into a 400.
import { jsonNulPath, nulPlace } from '@server/kernel/nul-text';
import {
  STORY_CARDS_MAX_DEFAULT,
  type CardExportFormat,
  type IgnoredEntry,
  type StoryCardFields,
} from '@shared/schemas/story-cards';
import {
  isCharacterBook,
  isCharacterCard,
  isCharacterCardV1,
  NO_LOREBOOK,
  readCharacterBook,
  readCharacterCard,
} from './character-card';
import { isRecord } from './entries';
import { CardFileError } from './errors';
import { isNovelAiFile, readNovelAi } from './novelai';
import { isPng, pngCardText } from './png';
import { isSillyTavernFile, readSillyTavern, writeSillyTavern } from './sillytavern';
import { isTaleweaverFile, readTaleweaver, writeTaleweaver } from './taleweaver';

export { CardFileError } from './errors';

export interface ReadCards {
  format: 'taleweaver' | 'sillytavern' | 'character-card' | 'novelai';
  cards: StoryCardFields[];
  ignored: IgnoredEntry[];
}

const UNKNOWN =
  'This file is not a lorebook Taleweaver knows: it reads SillyTavern World Info, Character Card V2/V3 (JSON or PNG), NovelAI .lorebook and Taleweaver cards files.';
const NEITHER = 'This file is neither a JSON lorebook nor a PNG character card.';

/** What a file may hold: a story's cards at most (STORY_MAX_CARDS), which bounds the entries read. */
export interface CardsFileLimits {
  maxCards?: number;
}

/**
 * Reads an uploaded file's bytes (JSON text, or a PNG character card) into cards; throws
 * CardFileError when the file does not have any known format's shape, holds more entries than a
 * story could keep, or holds U+0000 in its text (nothing imported).
 */
export function readCardsFile(
  bytes: Uint8Array,
  { maxCards = STORY_CARDS_MAX_DEFAULT }: CardsFileLimits = {},
): ReadCards {
  if (isPng(bytes)) return readPngCard(bytes, maxCards);
  let text: string;
  try {
    // Strict UTF-8 (a byte-order mark is dropped): other bytes are no lorebook.
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new CardFileError(NEITHER);
  }
  // Text that begins as JSON does is broken JSON; anything else was never meant to be.
  const file = parsedJson(text, /^\s*[[{"]/.test(text) ? 'This file is not valid JSON.' : NEITHER);
  if (!isRecord(file)) throw new CardFileError(UNKNOWN);
  if (isTaleweaverFile(file)) return { format: 'taleweaver', ...readTaleweaver(file, maxCards) };
  if (isCharacterCard(file)) return { format: 'character-card', ...readCharacterCard(file, maxCards) };
  if (isCharacterCardV1(file)) throw new CardFileError(NO_LOREBOOK);
  if (isNovelAiFile(file)) return { format: 'novelai', ...readNovelAi(file, maxCards) };
  if (isCharacterBook(file)) return { format: 'character-card', ...readCharacterBook(file, maxCards) };
  if (isSillyTavernFile(file)) return { format: 'sillytavern', ...readSillyTavern(file, maxCards) };
  throw new CardFileError(UNKNOWN);
}

/**
 * The file's JSON, parsed; `broken` is the sentence when it is not JSON. PostgreSQL's text cannot
 * hold U+0000, so a file with it anywhere is refused here, once, whatever field holds it.
 */
function parsedJson(text: string, broken: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new CardFileError(broken);
  }
  const nul = jsonNulPath(text, value);
  if (nul) {
    throw new CardFileError(
      `This file holds the NUL character (U+0000) at ${nulPlace(nul) || 'its top'}, which Taleweaver cannot store. Remove it and try again.`,
    );
  }
  return value;
}

/** A PNG character card: its V3 data (`ccv3`) when it has both, as V3 cards keep V2's beside for older readers. */
function readPngCard(bytes: Uint8Array, maxCards: number): ReadCards {
  const data = pngCardText(bytes);
  if (data === null) {
    throw new CardFileError('This PNG has no character card in it (no chara or ccv3 text chunk).');
  }
  const trimmed = data.trim();
  // Base64 as the card specs say; a few tools wrote the JSON as it is.
  const json = trimmed.startsWith('{') ? trimmed : Buffer.from(trimmed, 'base64').toString('utf8');
  const card = parsedJson(json, "This PNG's character data is not valid JSON.");
  if (!isRecord(card)) throw new CardFileError("This PNG's character data is not a character card.");
  if (isCharacterCard(card)) return { format: 'character-card', ...readCharacterCard(card, maxCards) };
  if (isCharacterCardV1(card)) throw new CardFileError(NO_LOREBOOK);
  throw new CardFileError("This PNG's character data is not a character card.");
}

/** The cards as a file of that format: its text, and the file name suffix ('.taleweaver-cards.json' or '.sillytavern.json'). */
export function writeCardsFile(
  cards: StoryCardFields[],
  format: CardExportFormat,
): { text: string; extension: string } {
  if (format === 'sillytavern') return { text: writeSillyTavern(cards), extension: '.sillytavern.json' };
  return { text: writeTaleweaver(cards), extension: '.taleweaver-cards.json' };
}
