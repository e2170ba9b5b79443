// Character cards' lorebooks: a V2 card as SillyTavern exports it (its settings in `extensions`), a
// V3 card whose keys are regular expressions (use_regex), a lorebook on its own, odd tuning settings
// read as none, and the refusals.
import { describe, expect, it } from 'vitest';
import { readCardsFile } from './index';
import { bytesOf, fixture, fixtureJson } from './testing';

const NO_LOREBOOK = 'This character card has no lorebook (character_book) to import.';

describe('Character Card V2/V3', () => {
  it("reads a V2 card's lorebook, SillyTavern's extensions included", () => {
    const read = readCardsFile(fixture('chara-card-v2.json'));
    expect(read.format).toBe('character-card');
    const [forest, glade, wolves] = read.cards;
    // SillyTavern sets use_regex on every entry it exports; its keys stay plain.
    expect(forest).toMatchObject({
      name: 'The Whisperwood',
      keys: ['Whisperwood', 'forest'],
      alwaysOn: true,
      priority: 100,
      scanDepth: 3, // the book's scan_depth, the entry's being null
      recursive: true,
    });
    expect(glade).toEqual({
      name: "Seraphina's glade",
      keys: ['glade'],
      secondaryKeys: ['night', 'moon'],
      secondaryLogic: 'notAny',
      content: 'At night the glade glows with moonflowers; their nectar closes wounds.',
      alwaysOn: false,
      enabled: true,
      priority: 80,
      caseSensitive: false,
      wholeWords: true,
      scanDepth: 5,
      recursive: false,
      sticky: 3,
      cooldown: 0,
      delay: 1,
    });
    expect(wolves).toMatchObject({ enabled: false, caseSensitive: true, secondaryKeys: [], priority: 50 });
    expect(read.ignored.map((line) => line.entry)).toEqual([
      'token_budget (the whole file)',
      'extensions.depth (1 entry)',
      'priority (1 entry)',
      'secondary_keys (1 entry)',
    ]);
  });

  it("wraps a V3 entry's keys as regular expressions when use_regex is set, case-insensitive unless case_sensitive", () => {
    const read = readCardsFile(fixture('chara-card-v3.json'));
    expect(read.cards.map(({ name, keys, caseSensitive }) => ({ name, keys, caseSensitive }))).toEqual([
      { name: 'The Meridian', keys: ['/Meridian|the ship/i', '/air ?ship/i'], caseSensitive: false },
      { name: "Ilse's past", keys: ['/Ilse/'], caseSensitive: true },
      { name: 'Storm spirits', keys: ['storm spirits'], caseSensitive: false },
    ]);
    expect(read.ignored).toEqual([]);
  });

  it('reads a character lorebook on its own', () => {
    const card = fixtureJson('chara-card-v3.json') as { data: { character_book: object } };
    const read = readCardsFile(bytesOf(card.data.character_book));
    expect(read.format).toBe('character-card');
    expect(read.cards).toHaveLength(3);
  });

  it('reads odd tuning settings, the extensions among them, as no setting', () => {
    const odd = { case_sensitive: 'yes', use_regex: 1, priority: 'high', position: 4, extensions: ['sticky'] };
    const read = readCardsFile(bytesOf({ entries: [{ keys: ['a.b'], content: 'Lore.', insertion_order: 5, ...odd }] }));
    expect(read.cards).toEqual([
      expect.objectContaining({ keys: ['a.b'], caseSensitive: false, priority: 5, sticky: 0, recursive: false }),
    ]);
    expect(read.ignored).toEqual([]);
  });

  it('refuses a card without a lorebook, or with an empty one, and a V1 card', () => {
    const v2 = fixtureJson('chara-card-v2.json') as { data: Record<string, unknown> };
    const without = { ...v2, data: { ...v2.data, character_book: undefined } };
    expect(() => readCardsFile(bytesOf(without))).toThrow(NO_LOREBOOK);
    const empty = { ...v2, data: { ...v2.data, character_book: { entries: [] } } };
    expect(() => readCardsFile(bytesOf(empty))).toThrow(NO_LOREBOOK);
    expect(() => readCardsFile(bytesOf({ name: 'Old', description: '', first_mes: 'Hi' }))).toThrow(NO_LOREBOOK);
  });

  it('refuses a lorebook of wrong types, naming the card, the entry and the field', () => {
    const card = (book: unknown) => bytesOf({ spec: 'chara_card_v3', data: { name: 'X', character_book: book } });
    expect(() =>
      readCardsFile(
        card({
          entries: [
            { keys: ['a'], content: 'b' },
            { keys: [1], content: 'c' },
          ],
        }),
      ),
    ).toThrow("This is a Character Card V3, but lorebook entry 2's 'keys' is not a list of strings.");
    expect(() => readCardsFile(card({ entries: { 0: {} } }))).toThrow(
      "This is a Character Card V3, but its lorebook's 'entries' is not a list of entries.",
    );
    expect(() => readCardsFile(card({ entries: [{ keys: ['a'], content: 'b' }, 'entry'] }))).toThrow(
      'This is a Character Card V3, but lorebook entry 2 is not an object of fields.',
    );
    expect(() => readCardsFile(card({ entries: [{ id: 'lore-7', keys: ['a'], content: 5, comment: 3 }] }))).toThrow(
      "This is a Character Card V3, but lorebook entry lore-7's 'content' is not text.",
    );
    expect(() => readCardsFile(bytesOf({ entries: [{ id: true, keys: ['a'], content: 'b' }] }))).toThrow(
      "This is a character lorebook, but entry 1's 'id' is not a number.",
    );
    expect(() => readCardsFile(bytesOf({ spec: 'chara_card_v2', data: 'nope' }))).toThrow(
      "This is a Character Card V2, but its 'data' is not an object.",
    );
  });
});
