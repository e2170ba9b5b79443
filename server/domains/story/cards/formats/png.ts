// A PNG's text chunks, read with Buffer alone: character cards travel as the character's picture,
// their JSON base64-encoded in a tEXt chunk (keyword `chara` for V2, `ccv3` for V3). Each chunk's
// length and checksum are checked, so a damaged or cut file is refused with its reason, not misread.
import { crc32, inflateSync } from 'node:zlib';
import { CardFileError } from './errors';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** Compressed text may not grow past this: a small file must not unpack into gigabytes. */
const TEXT_MAX_BYTES = 16 * 1024 * 1024;

export const isPng = (bytes: Uint8Array) => bytes.length >= SIGNATURE.length && SIGNATURE.equals(bytes.subarray(0, 8));

/** Each text chunk's text by its keyword (the first chunk of a keyword wins), from tEXt, zTXt and iTXt. */
export function pngTextChunks(bytes: Uint8Array): Map<string, string> {
  const png = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const texts = new Map<string, string>();
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
    const text = textChunk(type, png.subarray(offset + 8, end));
    if (text && !texts.has(text.keyword)) texts.set(text.keyword, text.text);
    if (type === 'IEND') break;
    offset = end + 4;
  }
  return texts;
}

function textChunk(type: string, data: Buffer): { keyword: string; text: string } | null {
  const nul = data.indexOf(0);
  if (nul < 0 || !['tEXt', 'zTXt', 'iTXt'].includes(type)) return null;
  const keyword = data.toString('latin1', 0, nul);
  // tEXt: keyword, NUL, Latin-1 text.
  if (type === 'tEXt') return { keyword, text: data.toString('latin1', nul + 1) };
  // zTXt: keyword, NUL, compression method (0: deflate), compressed Latin-1 text.
  if (type === 'zTXt') return { keyword, text: inflate(data.subarray(nul + 2), type).toString('latin1') };
  // iTXt: keyword, NUL, compressed flag, method, language tag, NUL, translated keyword, NUL, UTF-8 text.
  const compressed = data[nul + 1] === 1;
  const language = data.indexOf(0, nul + 3);
  const translated = language < 0 ? -1 : data.indexOf(0, language + 1);
  if (translated < 0) throw new CardFileError('This PNG is damaged: an iTXt chunk is incomplete.');
  const body = data.subarray(translated + 1);
  return { keyword, text: (compressed ? inflate(body, type) : body).toString('utf8') };
}

function inflate(data: Buffer, type: string): Buffer {
  try {
    return inflateSync(data, { maxOutputLength: TEXT_MAX_BYTES });
  } catch (error) {
    if (error instanceof RangeError) throw new CardFileError('This PNG holds more text than a character card could.');
    throw new CardFileError(`This PNG is damaged: a ${type} chunk cannot be unpacked.`);
  }
}
