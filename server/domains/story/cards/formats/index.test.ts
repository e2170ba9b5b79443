// Which format a file is, by its shape, and the refusals for a file that is none of them, for a
// file of more entries than a story could keep (before any is read), and for text holding U+0000.
import { describe, expect, it } from 'vitest';
import { CARDS_FILE_FORMAT } from '@shared/schemas/story-cards';
import { CardFileError, readCardsFile } from './index';
import { bytesOf, fixtureJson } from './testing';

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

  it('refuses up front a file of more entries than twice the cards a story may hold, in every format', () => {
    const maxCards = 3;
    const entry = (i: number) => ({ key: [`k${i}`], keys: [`k${i}`], content: `Lore ${i}.`, text: `Lore ${i}.` });
    const entries = (n: number) => Array.from({ length: n }, (_, i) => entry(i));
    const card = fixtureJson('chara-card-v2.json');
    const files = (n: number) => [
      { entries: Object.fromEntries(entries(n).map((e, i) => [String(i), e])) },
      { entries: entries(n) },
      { lorebookVersion: 5, entries: entries(n) },
      { ...card, data: { ...(card.data as object), character_book: { entries: entries(n) } } },
      { format: CARDS_FILE_FORMAT, version: 1, cards: entries(n).map((e, i) => ({ ...e, name: `Card ${i}` })) },
    ];
    for (const file of files(6)) expect(readCardsFile(bytesOf(file), { maxCards }).cards).toHaveLength(6);
    for (const file of files(7)) {
      expect(() => readCardsFile(bytesOf(file), { maxCards })).toThrow(
        new CardFileError(
          'This file has 7 entries: Taleweaver reads at most 6 from one file, twice the 3 cards a story may hold. Split it into smaller files.',
        ),
      );
    }
  });

  it('refuses a file whose text holds U+0000 anywhere, naming where', () => {
    const file = {
      entries: { 0: { key: ['k'], content: 'Lore.' }, 1: { key: ['k'], content: 'Lo\0re.', group: 'x' } },
    };
    expect(() => readCardsFile(bytesOf(file))).toThrow(
      'This file holds the NUL character (U+0000) at entries.1.content, which Taleweaver cannot store. Remove it and try again.',
    );
    // A field Taleweaver has no use for is text of the file all the same.
    const unused = { entries: [{ key: ['k'], content: 'Lore.', automationId: '\0' }] };
    expect(() => readCardsFile(bytesOf(unused))).toThrow('at entries.0.automationId,');
  });
});
