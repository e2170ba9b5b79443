// PNG character cards, built here byte by byte (a real 1×1 picture: IHDR, IDAT, IEND, each with its
// CRC) around a card's text chunk: tEXt `chara`, `ccv3` preferred, iTXt and zTXt, and the refusals
// for a picture with no card, a damaged chunk and a cut file. What a PNG costs to read is what its
// card is: text chunks of other keywords, and later chunks of a keyword, are never unpacked, and a
// card unpacks to 8 MiB at most.
import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readCardsFile } from './index';
import { chunk, fixture, fixtureJson, png } from './testing';

const nul = Buffer.from([0]);
const base64 = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8').toString('base64');
const tEXt = (keyword: string, text: string) =>
  chunk('tEXt', Buffer.concat([Buffer.from(keyword, 'latin1'), nul, Buffer.from(text, 'latin1')]));
const zTXt = (keyword: string, compressed: Buffer) =>
  chunk('zTXt', Buffer.concat([Buffer.from(keyword, 'latin1'), Buffer.from([0, 0]), compressed]));
/** Bytes no inflater takes (a deflate block of reserved type 3). */
const notDeflate = Buffer.from([0x78, 0x9c, 0xff, 0xff, 0xff, 0xff]);
const v2 = fixtureJson('chara-card-v2.json');
const v3 = fixtureJson('chara-card-v3.json');

describe('PNG character card', () => {
  it('reads the card in a tEXt chunk named chara', () => {
    const read = readCardsFile(png(tEXt('Comment', 'made with a card editor'), tEXt('chara', base64(v2))));
    expect(read.format).toBe('character-card');
    expect(read.cards.map((card) => card.name)).toEqual(['The Whisperwood', "Seraphina's glade", 'Shadow wolves']);
    expect(read).toEqual(readCardsFile(fixture('chara-card-v2.json')));
  });

  it('prefers the V3 card (ccv3) to the V2 one beside it, whichever comes first', () => {
    const read = readCardsFile(png(tEXt('chara', base64(v2)), tEXt('ccv3', base64(v3))));
    expect(read.cards.map((card) => card.name)).toEqual(['The Meridian', "Ilse's past", 'Storm spirits']);
  });

  it('reads an uncompressed iTXt chunk (UTF-8) and a compressed zTXt one', () => {
    const unicode = { ...v3, data: { ...(v3.data as object), name: 'Ærøskøbing 東京' } };
    const iTXt = chunk(
      'iTXt',
      Buffer.concat([Buffer.from('ccv3'), Buffer.from([0, 0, 0, 0, 0]), Buffer.from(base64(unicode))]),
    );
    expect(readCardsFile(png(iTXt)).cards).toHaveLength(3);
    const zTXt = chunk('zTXt', Buffer.concat([Buffer.from('chara'), Buffer.from([0, 0]), deflateSync(base64(v2))]));
    expect(readCardsFile(png(zTXt)).cards).toHaveLength(3);
  });

  it('refuses a picture with no card, a card of no lorebook, and data that is not a card', () => {
    expect(() => readCardsFile(png(tEXt('Software', 'paint')))).toThrow(
      'This PNG has no character card in it (no chara or ccv3 text chunk).',
    );
    const bare = { ...v2, data: { ...(v2.data as object), character_book: undefined } };
    expect(() => readCardsFile(png(tEXt('chara', base64(bare))))).toThrow(
      'This character card has no lorebook (character_book) to import.',
    );
    expect(() => readCardsFile(png(tEXt('chara', 'bm90IGpzb24=')))).toThrow(
      "This PNG's character data is not valid JSON.",
    );
    expect(() => readCardsFile(png(tEXt('chara', base64({ entries: {} }))))).toThrow(
      "This PNG's character data is not a character card.",
    );
  });

  it('refuses a damaged chunk and a cut file', () => {
    const good = png(tEXt('chara', base64(v2)));
    const damaged = Buffer.from(good);
    damaged[60] ^= 0xff; // inside the tEXt chunk's data
    expect(() => readCardsFile(damaged)).toThrow('This PNG is damaged: its tEXt chunk fails its checksum.');
    expect(() => readCardsFile(good.subarray(0, 200))).toThrow(
      'This PNG is cut short: its last chunk runs past the end of the file.',
    );
  });

  it('never unpacks a text chunk of a keyword no card format uses, nor keeps its text', () => {
    const read = readCardsFile(png(zTXt('Comment', notDeflate), tEXt('chara', base64(v2))));
    expect(read.cards).toHaveLength(3);
    const iTXt = chunk(
      'iTXt',
      Buffer.concat([Buffer.from('XML:com.adobe.xmp'), Buffer.from([0, 1, 0, 0, 0]), notDeflate]),
    );
    expect(readCardsFile(png(iTXt, tEXt('chara', base64(v2)))).cards).toHaveLength(3);
  });

  it('reads the first chunk of a keyword and never unpacks a later one', () => {
    const read = readCardsFile(png(tEXt('chara', base64(v2)), zTXt('chara', notDeflate)));
    expect(read.cards.map((card) => card.name)).toEqual(['The Whisperwood', "Seraphina's glade", 'Shadow wolves']);
    // The V2 card is not unpacked when the V3 one is there to read.
    expect(readCardsFile(png(zTXt('chara', notDeflate), tEXt('ccv3', base64(v3)))).cards).toHaveLength(3);
  });

  it('refuses a card that unpacks past 8 MiB, which it read before', () => {
    // Base64 with trailing blanks (trimmed off when read): a real card, 8 MiB and a byte once unpacked.
    const text = base64(v3);
    const padded = `${text}${' '.repeat(8 * 1024 * 1024 + 1 - text.length)}`;
    expect(() => readCardsFile(png(zTXt('ccv3', deflateSync(padded))))).toThrow(
      'This PNG holds more than 8 MB of character data once unpacked, more than a character card could.',
    );
    const fits = `${text}${' '.repeat(8 * 1024 * 1024 - text.length)}`;
    expect(readCardsFile(png(zTXt('ccv3', deflateSync(fits)))).cards).toHaveLength(3);
  });

  it('refuses a card whose text holds U+0000, naming where', () => {
    const book = (v2.data as { character_book: { entries: object[] } }).character_book;
    // JSON writes the character as the escape \u0000, as a card editor would.
    const withNul = {
      ...v2,
      data: { ...(v2.data as object), character_book: { ...book, entries: [{ ...book.entries[0], content: 'A\0B' }] } },
    };
    expect(() => readCardsFile(png(tEXt('chara', base64(withNul))))).toThrow(
      'This file holds the NUL character (U+0000) at data.character_book.entries.0.content, which Taleweaver cannot store. Remove it and try again.',
    );
  });
});
