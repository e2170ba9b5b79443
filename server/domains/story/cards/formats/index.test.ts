// Which format a file is, by its shape, and the refusals for a file that is none of them.
import { describe, expect, it } from 'vitest';
import { CardFileError, readCardsFile } from './index';
import { bytesOf } from './testing';

const UNKNOWN =
  'This file is not a lorebook Taleweaver knows: it reads SillyTavern World Info, Character Card V2/V3 (JSON or PNG), NovelAI .lorebook and Taleweaver cards files.';

describe('readCardsFile', () => {
  it('refuses broken JSON, other text and other bytes, each with its sentence', () => {
    expect(() => readCardsFile(bytesOf('{"entries": {'))).toThrow(new CardFileError('This file is not valid JSON.'));
    expect(() => readCardsFile(bytesOf('Once upon a time'))).toThrow(
      'This file is neither a JSON lorebook nor a PNG character card.',
    );
    expect(() => readCardsFile(new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16]))).toThrow(
      'This file is neither a JSON lorebook nor a PNG character card.',
    );
  });

  it('refuses JSON of no known shape', () => {
    for (const file of [[], 'text', 42, null, { cards: [] }, { format: 'other' }]) {
      expect(() => readCardsFile(bytesOf(JSON.stringify(file)))).toThrow(UNKNOWN);
    }
  });

  it('reads a file that begins with a byte-order mark', () => {
    const text = `\ufeff${JSON.stringify({ entries: [{ uid: 0, key: ['k'], content: 'Lore.' }] })}`;
    expect(readCardsFile(bytesOf(text)).cards).toHaveLength(1);
  });

  it('throws CardFileError, so the routes can tell a refused file from a fault', () => {
    expect(() => readCardsFile(bytesOf('{'))).toThrow(CardFileError);
  });
});
