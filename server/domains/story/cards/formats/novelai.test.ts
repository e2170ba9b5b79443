// NovelAI lorebooks: names, keys (regular expressions already in Taleweaver's syntax), text, forced
// activation, budget priority, search range in characters, the context settings with no meaning here,
// odd settings read as none, and the refusals.
import { describe, expect, it } from 'vitest';
import { readCardsFile } from './index';
import { bytesOf, fixture } from './testing';

describe('NovelAI lorebook', () => {
  it('reads its entries, noting the settings that differ from NovelAI’s defaults', () => {
    const read = readCardsFile(fixture('novelai.lorebook'));
    expect(read.format).toBe('novelai');
    expect(read.cards).toEqual([
      expect.objectContaining({
        name: 'Vask',
        keys: ['Vask', '/glass (city|domes)/i'],
        content: 'Vask is a desert city of glass domes. Water is currency there.',
        priority: 400,
        scanDepth: 2, // 1000 characters
        wholeWords: false,
        alwaysOn: false,
      }),
      expect.objectContaining({ name: 'Water Guild', priority: 600, scanDepth: 5 }),
      // Forced on, no keys, no name: named by its place.
      expect.objectContaining({ name: 'Entry 3', keys: [], alwaysOn: true, enabled: false, priority: 800 }),
    ]);
    expect(read.ignored).toEqual([
      { entry: 'contextConfig.insertionPosition (1 entry)', reason: expect.stringContaining('places cards itself') },
      { entry: 'searchRange (1 entry)', reason: expect.stringContaining('600 characters') },
    ]);
  });

  it('clamps the search range to at least one message and notes the categories and key-relative entries', () => {
    const entry = { keys: ['k'], text: 'Lore.', searchRange: 50, category: 'people', keyRelative: true };
    const read = readCardsFile(bytesOf({ lorebookVersion: 5, entries: [entry] }));
    expect(read.cards[0]).toMatchObject({ name: 'k', scanDepth: 1 });
    expect(read.ignored.map((line) => line.entry)).toEqual([
      'keyRelative (1 entry)',
      'category (1 entry)',
      'searchRange (1 entry)',
    ]);
  });

  it('reads odd settings, in contextConfig too, as no setting: the defaults, and nothing noted', () => {
    const context = { budgetPriority: 'high', insertionPosition: '2', prefix: 5, tokenBudget: 'all' };
    const odd = { id: 7, keyRelative: 'yes', category: 3, loreBiasGroups: { phrases: ['x'] } };
    const entries = [
      { keys: ['k'], text: 'Lore.', contextConfig: context, ...odd },
      { keys: ['k'], text: 'Lore.', contextConfig: [{ prefix: 'p' }] },
    ];
    const read = readCardsFile(bytesOf({ lorebookVersion: 5, entries }));
    expect(read.cards.map(({ priority, scanDepth }) => ({ priority, scanDepth }))).toEqual([
      { priority: 0, scanDepth: 2 },
      { priority: 0, scanDepth: 2 },
    ]);
    expect(read.ignored).toEqual([]);
  });

  it('refuses wrong types and an empty lorebook', () => {
    expect(() => readCardsFile(bytesOf({ lorebookVersion: 5, entries: [{ keys: 'k', text: 'x' }] }))).toThrow(
      "This is a NovelAI lorebook, but entry 1's 'keys' is not a list of strings.",
    );
    expect(() => readCardsFile(bytesOf({ lorebookVersion: 5, entries: [{ text: 'x' }, null] }))).toThrow(
      'This is a NovelAI lorebook, but entry 2 is not an object of fields.',
    );
    expect(() => readCardsFile(bytesOf({ lorebookVersion: 5, entries: [{ text: 'x', searchRange: '1000' }] }))).toThrow(
      "This is a NovelAI lorebook, but entry 1's 'searchRange' is not a number.",
    );
    expect(() => readCardsFile(bytesOf({ lorebookVersion: 5, entries: {} }))).toThrow(
      "This is a NovelAI lorebook, but its 'entries' is not a list of entries.",
    );
    expect(() => readCardsFile(bytesOf({ lorebookVersion: 5, entries: [] }))).toThrow(
      'This is a NovelAI lorebook, but it has no entries.',
    );
  });
});
