// A PNG's character card, read with Buffer alone: character cards travel as the character's
// picture, their JSON base64-encoded in a text chunk (keyword `chara` for V2, `ccv3` for V3; tEXt,
// or zTXt and iTXt compressed). Each chunk's length and checksum are checked, so a damaged or cut
// file is refused with its reason, not misread. Reading costs what the card is: a text chunk of any
// other keyword, and any later chunk of a card's keyword, is passed over without being unpacked,
// and the one chunk read unpacks to CARD_TEXT_MAX_BYTES at most.
import { crc32, inflateSync } from 'node:zlib';
import { CardFileError } from './errors';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** The keywords a character card is written under, the one read first when a file has both. */
const CARD_KEYWORDS = ['ccv3', 'chara'] as const;
type CardKeyword = (typeof CARD_KEYWORDS)[number];
const TEXT_CHUNKS = new Set(['tEXt', 'zTXt', 'iTXt']);
const KEYWORD_MAX_BYTES = 79;
/**
 * A card's text once unpacked, at most. A card in a picture may carry as much as a lorebook file may
 * be (CARD_IMPORT_MAX_BYTES, 5 MB): 5 MB of JSON is 6.7 MB as base64, which this leaves room for,
 * and no more. Since only one chunk of a file is ever unpacked, this bounds the whole file's.
 */
const CARD_TEXT_MAX_BYTES = 8 * 1024 * 1024;

export const isPng = (bytes: Uint8Array) => bytes.length >= SIGNATURE.length && SIGNATURE.equals(bytes.subarray(0, 8));

/** A text chunk as found: its type and its data after the keyword's NUL, still packed. */
interface FoundChunk {
  type: string;
  data: Buffer;
}

/** The text of the file's character card (its `ccv3` chunk, else its `chara` one), or null when it has neither. */
export function pngCardText(bytes: Uint8Array): string | null {
  const found = cardChunks(bytes);
  const first = CARD_KEYWORDS.map((keyword) => found.get(keyword)).find((chunk) => chunk !== undefined);
  return first ? chunkText(first) : null;
}

/** The first text chunk of each card keyword, every chunk's checksum checked; nothing unpacked. */
function cardChunks(bytes: Uint8Array): Map<CardKeyword, FoundChunk> {
  const png = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const found = new Map<CardKeyword, FoundChunk>();
  let offset = SIGNATURE.length;
  while (offset + 12 <= png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('latin1', offset + 4, offset + 8);
    const end = offset + 8 + length;
    if (end + 4 > png.length)
      throw new CardFileError('This PNG is cut short: its last chunk runs past the end of the file.');
    if (crc32(png.subarray(offset + 4, end)) !== png.readUInt32BE(end)) {
      throw new CardFileError(`This PNG is damaged: its ${type} chunk fails its checksum.`);
    }
    if (TEXT_CHUNKS.has(type)) {
      const data = png.subarray(offset + 8, end);
      // A keyword is 1-79 bytes and its NUL: a chunk without one so soon is no card's.
      const nul = data.subarray(0, KEYWORD_MAX_BYTES + 1).indexOf(0);
      const keyword = nul < 0 ? '' : data.toString('latin1', 0, nul);
      if (isCardKeyword(keyword) && !found.has(keyword)) found.set(keyword, { type, data: data.subarray(nul + 1) });
    }
    if (type === 'IEND') break;
    offset = end + 4;
  }
  return found;
}

const isCardKeyword = (keyword: string): keyword is CardKeyword =>
  (CARD_KEYWORDS as readonly string[]).includes(keyword);

function chunkText({ type, data }: FoundChunk): string {
  // tEXt: Latin-1 text.
  if (type === 'tEXt') return data.toString('latin1');
  // zTXt: compression method (0: deflate), compressed Latin-1 text.
  if (type === 'zTXt') return inflate(data.subarray(1), type).toString('latin1');
  // iTXt: compressed flag, method, language tag, NUL, translated keyword, NUL, UTF-8 text.
  const compressed = data[0] === 1;
  const language = data.indexOf(0, 2);
  const translated = language < 0 ? -1 : data.indexOf(0, language + 1);
  if (translated < 0) throw new CardFileError('This PNG is damaged: an iTXt chunk is incomplete.');
  const body = data.subarray(translated + 1);
  return (compressed ? inflate(body, type) : body).toString('utf8');
}

function inflate(data: Buffer, type: string): Buffer {
  try {
    return inflateSync(data, { maxOutputLength: CARD_TEXT_MAX_BYTES });
  } catch (error) {
    if (error instanceof RangeError) {
      throw new CardFileError(
        `This PNG holds more than ${CARD_TEXT_MAX_BYTES / 1024 / 1024} MB of character data once unpacked, more than a character card could.`,
      );
    }
    throw new CardFileError(`This PNG is damaged: a ${type} chunk cannot be unpacked.`);
  }
}
