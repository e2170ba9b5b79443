// Taleweaver's own cards file: read as the card form checks cards (a bad card set aside with the
// form's message), refused for another version or no cards, and the round trip.
import { describe, expect, it } from 'vitest';
import { readCardsFile, writeCardsFile } from './index';
import { bytesOf, randomCards } from './testing';
import { STORY_CARD_MESSAGES } from '@shared/schemas/story-cards';

const file = (cards: unknown[], version: unknown = 1) => bytesOf({ format: 'taleweaver.cards', version, cards });

describe('Taleweaver cards file', () => {
  it('reads cards with the defaults for fields left out, setting aside those the card form refuses', () => {
    const read = readCardsFile(
      file([
        { name: ' Mara ', keys: ['Mara'], content: 'A captain.' },
        { name: 'Silent', keys: [], content: 'Never sent.' },
        { name: 'Odd', keys: ['x'], content: 'y', priority: 'high' },
        { keys: ['x'], content: 'y' },
        'not a card',
      ]),
    );
    expect(read.format).toBe('taleweaver');
    expect(read.cards).toEqual([
      {
        name: 'Mara',
        keys: ['Mara'],
        secondaryKeys: [],
        secondaryLogic: 'andAny',
        content: 'A captain.',
        alwaysOn: false,
        enabled: true,
        priority: 0,
        caseSensitive: false,
        wholeWords: true,
        scanDepth: 4,
        recursive: false,
        sticky: 0,
        cooldown: 0,
        delay: 0,
      },
    ]);
    expect(read.ignored).toEqual([
      { entry: 'Silent', reason: expect.stringContaining('at least one key, or to be always on') },
      // The card form's own sentence for the field, as a player typing it would read.
      { entry: 'Odd', reason: STORY_CARD_MESSAGES.priorityInvalid },
      { entry: 'entry 4', reason: 'A card needs a name.' },
      { entry: 'entry 5', reason: 'A card needs a name.' },
    ]);
  });

  it('refuses another version, cards that are not a list, and a file without cards', () => {
    expect(() => readCardsFile(file([], 2))).toThrow(
      'This is a Taleweaver cards file, but of version 2, which Taleweaver cannot read.',
    );
    expect(() => readCardsFile(bytesOf({ format: 'taleweaver.cards', version: 1, cards: {} }))).toThrow(
      "This is a Taleweaver cards file, but its 'cards' is not a list of cards.",
    );
    expect(() => readCardsFile(file([]))).toThrow('This is a Taleweaver cards file, but it has no cards.');
  });

  it('round trip: cards written read back the same, in order, with nothing ignored; nothing but the fields is written', () => {
    const cards = randomCards(300, 7);
    const { text, extension } = writeCardsFile(cards, 'taleweaver');
    expect(extension).toBe('.taleweaver-cards.json');
    expect(text).toMatch(/^\{\n {2}"format": "taleweaver.cards",\n {2}"version": 1,/);
    expect(readCardsFile(bytesOf(text))).toEqual({ format: 'taleweaver', cards, ignored: [] });
    const stored = { ...cards[0], id: 9, tokens: 12, createdAt: 'then', updatedAt: 'now' };
    expect(Object.keys(JSON.parse(writeCardsFile([stored], 'taleweaver').text).cards[0])).toEqual(
      Object.keys(cards[0]),
    );
  });
});
