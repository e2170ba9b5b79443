// Story cards' files, in and out, as pure functions over bytes and text (no database, no HTTP):
// which format an uploaded file is, by its shape, and its entries as cards; the cards as a file of
// Taleweaver's own format or SillyTavern's World Info. The routes turn CardFileError into a 400.
import type { CardExportFormat, IgnoredEntry, StoryCardFields } from '@shared/schemas/story-cards';
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
import { isPng, pngTextChunks } from './png';
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

/** Reads an uploaded file's bytes (JSON text, or a PNG character card) into cards; throws CardFileError when the file does not have any known format's shape (nothing imported). */
export function readCardsFile(bytes: Uint8Array): ReadCards {
  if (isPng(bytes)) return readPngCard(bytes);
  let text: string;
  try {
    // Strict UTF-8 (a byte-order mark is dropped): other bytes are no lorebook.
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new CardFileError(NEITHER);
  }
  let file: unknown;
  try {
    file = JSON.parse(text);
  } catch {
    // Text that begins as JSON does is broken JSON; anything else was never meant to be.
    throw new CardFileError(/^\s*[[{"]/.test(text) ? 'This file is not valid JSON.' : NEITHER);
  }
  if (!isRecord(file)) throw new CardFileError(UNKNOWN);
  if (isTaleweaverFile(file)) return { format: 'taleweaver', ...readTaleweaver(file) };
  if (isCharacterCard(file)) return { format: 'character-card', ...readCharacterCard(file) };
  if (isCharacterCardV1(file)) throw new CardFileError(NO_LOREBOOK);
  if (isNovelAiFile(file)) return { format: 'novelai', ...readNovelAi(file) };
  if (isCharacterBook(file)) return { format: 'character-card', ...readCharacterBook(file) };
  if (isSillyTavernFile(file)) return { format: 'sillytavern', ...readSillyTavern(file) };
  throw new CardFileError(UNKNOWN);
}

/** A PNG character card: its V3 data (`ccv3`) when it has both, as V3 cards keep V2's beside for older readers. */
function readPngCard(bytes: Uint8Array): ReadCards {
  const chunks = pngTextChunks(bytes);
  const data = chunks.get('ccv3') ?? chunks.get('chara');
  if (data === undefined) {
    throw new CardFileError('This PNG has no character card in it (no chara or ccv3 text chunk).');
  }
  const trimmed = data.trim();
  // Base64 as the card specs say; a few tools wrote the JSON as it is.
  const json = trimmed.startsWith('{') ? trimmed : Buffer.from(trimmed, 'base64').toString('utf8');
  let card: unknown;
  try {
    card = JSON.parse(json);
  } catch {
    throw new CardFileError("This PNG's character data is not valid JSON.");
  }
  if (!isRecord(card)) throw new CardFileError("This PNG's character data is not a character card.");
  if (isCharacterCard(card)) return { format: 'character-card', ...readCharacterCard(card) };
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
