// SillyTavern World Info: a modern export (regex key, secondary keys, a disabled and an empty entry,
// settings with no meaning here), an old minimal one, the array form, refusals naming the problem
// (the same field whatever the file's order), odd tuning settings read as none, and the round trip
// through Taleweaver's own World Info export.
import { describe, expect, it } from 'vitest';
import { CardFileError, readCardsFile, writeCardsFile } from './index';
import { bytesOf, fixture, fixtureJson, randomCards } from './testing';

const PLACEMENT =
  'Taleweaver places cards itself: before the recent turns when always on, next to the action when triggered.';

describe('SillyTavern World Info', () => {
  it('reads a modern export: fields mapped, the empty entry and the unused settings listed', () => {
    const read = readCardsFile(fixture('sillytavern-modern.json'));
    expect(read.format).toBe('sillytavern');
    expect(read.cards.map((card) => card.name)).toEqual(['Eldoria', 'Captain Mara Voss', 'The Drowned Chapel']);
    const [eldoria, mara, chapel] = read.cards;
    expect(eldoria).toMatchObject({
      alwaysOn: true,
      priority: 100,
      scanDepth: 4,
      caseSensitive: false,
      wholeWords: true,
    });
    expect(eldoria.recursive).toBe(false);
    expect(mara).toEqual({
      name: 'Captain Mara Voss',
      keys: ['/\\bMara( Voss)?\\b/i', 'the captain'],
      secondaryKeys: ['ship', 'deck'],
      secondaryLogic: 'andAll',
      content: expect.stringMatching(/^Mara Voss captains/),
      alwaysOn: false,
      enabled: true,
      priority: 250,
      caseSensitive: true,
      wholeWords: false,
      scanDepth: 6,
      recursive: true,
      sticky: 2,
      cooldown: 1,
      delay: 0,
    });
    // Disabled, its blank key dropped, its order brought within ±1000.
    expect(chapel).toMatchObject({ enabled: false, keys: ['chapel', 'drowned chapel'], priority: 1000 });
    expect(read.ignored).toEqual([
      { entry: 'Tide Council (todo)', reason: 'A card needs some content: the facts the narrator should know.' },
      { entry: 'depth (1 entry)', reason: PLACEMENT },
      { entry: 'probability (1 entry)', reason: expect.stringContaining('always sent') },
      { entry: 'group (1 entry)', reason: expect.stringContaining('no inclusion groups') },
      { entry: 'position (1 entry)', reason: PLACEMENT },
      {
        entry: 'order (1 entry)',
        reason: "Taleweaver's priority runs from -1000 to 1000; values beyond were brought within.",
      },
    ]);
  });

  it('reads an old export with only the first fields, naming an entry by its first key when it has no comment', () => {
    const read = readCardsFile(fixture('sillytavern-old.json'));
    expect(read.cards).toEqual([
      expect.objectContaining({ name: 'Greyhold', keys: ['Greyhold', 'the keep'], priority: 100, alwaysOn: false }),
      expect.objectContaining({ name: 'Lord Aldric', secondaryKeys: ['ghost', 'spirit'], secondaryLogic: 'andAny' }),
      expect.objectContaining({ name: 'World rules', keys: [], alwaysOn: true, priority: 200 }),
    ]);
    expect(read.cards[0]).toMatchObject({ scanDepth: 4, recursive: false, sticky: 0, wholeWords: true });
    expect(read.ignored).toEqual([{ entry: 'position (1 entry)', reason: PLACEMENT }]);
  });

  it('reads entries given as an array, in the editor order when every entry has its displayIndex', () => {
    const entries = Object.values(fixtureJson('sillytavern-old.json').entries as object);
    expect(readCardsFile(bytesOf({ entries })).cards).toHaveLength(3);
    const shuffled = entries.map((entry, index) => ({ ...entry, displayIndex: 2 - index }));
    expect(readCardsFile(bytesOf({ entries: shuffled })).cards.map((card) => card.name)).toEqual([
      'World rules',
      'Lord Aldric',
      'Greyhold',
    ]);
  });

  it('sets aside entries that would never be sent, have too many keys or too long a content', () => {
    const entry = (uid: number, fields: object) => ({ uid, key: ['k'], content: 'Some lore.', comment: '', ...fields });
    const read = readCardsFile(
      bytesOf({
        entries: {
          '0': entry(0, { key: [], constant: false }),
          '1': entry(1, { key: Array.from({ length: 21 }, (_, i) => `key ${i}`) }),
          '2': entry(2, { content: 'x'.repeat(8001), comment: 'Long one' }),
          '3': entry(3, { selective: false, keysecondary: ['never used'], selectiveLogic: 9 }),
        },
      }),
    );
    expect(read.cards).toEqual([expect.objectContaining({ name: 'k', secondaryKeys: [], secondaryLogic: 'andAny' })]);
    expect(read.ignored).toEqual([
      { entry: 'entry 0', reason: expect.stringContaining('at least one key, or to be always on') },
      { entry: 'key 0', reason: 'A card may have at most 20 keys (and 20 secondary keys).' },
      { entry: 'Long one', reason: "A card's content must be at most 8000 characters." },
      { entry: 'keysecondary (1 entry)', reason: expect.stringContaining('never used their secondary keys') },
      { entry: 'selectiveLogic (1 entry)', reason: expect.stringContaining("'and any'") },
    ]);
  });

  it('refuses a file of wrong types or no entries, naming the format and the problem', () => {
    const refusal = (file: unknown) => () => readCardsFile(bytesOf(file));
    expect(refusal({ entries: { '3': { uid: 3, key: 'dragon', content: 'x' } } })).toThrow(
      new CardFileError("This is a SillyTavern World Info file, but entry 3's 'key' is not a list of strings."),
    );
    expect(refusal({ entries: [{ key: ['a'], content: 7 }] })).toThrow(
      "This is a SillyTavern World Info file, but entry 0's 'content' is not text.",
    );
    expect(refusal({ entries: { '0': 'not an entry' } })).toThrow(
      'This is a SillyTavern World Info file, but entry 0 is not an object of fields.',
    );
    expect(refusal({ entries: 'none' })).toThrow(
      "This is a SillyTavern World Info file, but its 'entries' is neither a list nor an object of entries.",
    );
    expect(refusal({ entries: {} })).toThrow('This is a SillyTavern World Info file, but it has no entries.');
  });

  it("names the same field whatever the file's order, an entry by its position when its uid is not a number", () => {
    const refusal = (entry: unknown) => () => readCardsFile(bytesOf({ entries: { '5': entry } }));
    // content comes first in the file, key first in what a card is made of.
    expect(refusal({ content: 7, key: 'dragon' })).toThrow(
      new CardFileError("This is a SillyTavern World Info file, but entry 5's 'key' is not a list of strings."),
    );
    expect(refusal({ uid: true, key: ['k'], content: 'x' })).toThrow(
      new CardFileError("This is a SillyTavern World Info file, but entry 5's 'uid' is not a number."),
    );
    expect(refusal({ uid: 'u', key: ['k'], content: 'x', order: 'high' })).toThrow(
      new CardFileError("This is a SillyTavern World Info file, but entry 5's 'order' is not a number."),
    );
    expect(refusal([])).toThrow(
      new CardFileError('This is a SillyTavern World Info file, but entry 5 is not an object of fields.'),
    );
  });

  it('reads odd tuning settings as no setting: the defaults, and nothing noted', () => {
    const odd = { scanDepth: 'deep', sticky: '2', cooldown: [], delay: {}, caseSensitive: 'yes' };
    const more = { matchWholeWords: 0, preventRecursion: 'no', selectiveLogic: '3', displayIndex: 'first' };
    const read = readCardsFile(bytesOf({ entries: [{ key: ['k'], content: 'Lore.', ...odd, ...more }] }));
    expect(read.cards).toEqual([
      expect.objectContaining({
        scanDepth: 4,
        sticky: 0,
        cooldown: 0,
        delay: 0,
        caseSensitive: false,
        wholeWords: true,
        recursive: false,
        secondaryLogic: 'andAny',
      }),
    ]);
    expect(read.ignored).toEqual([]);
  });

  it('round trip: cards written as World Info read back the same, in order, with nothing ignored', () => {
    const cards = randomCards(300);
    const { text, extension } = writeCardsFile(cards, 'sillytavern');
    expect(extension).toBe('.sillytavern.json');
    expect(readCardsFile(bytesOf(text))).toEqual({ format: 'sillytavern', cards, ignored: [] });
  });

  it('writes the modern field set SillyTavern imports, placing always-on entries first and triggered ones at depth', () => {
    const [always, triggered] = randomCards(2).map((card, index) => ({ ...card, alwaysOn: index === 0 }));
    const { entries } = JSON.parse(writeCardsFile([always, triggered], 'sillytavern').text);
    expect(Object.keys(entries)).toEqual(['0', '1']);
    expect(entries['0']).toMatchObject({ uid: 0, constant: true, position: 0, displayIndex: 0, comment: always.name });
    expect(entries['1']).toMatchObject({
      uid: 1,
      constant: false,
      position: 4,
      depth: 4,
      probability: 100,
      useProbability: true,
      vectorized: false,
      addMemo: true,
      group: '',
      groupWeight: 100,
      role: null,
      preventRecursion: !triggered.recursive,
      disable: !triggered.enabled,
      order: triggered.priority,
      selective: triggered.secondaryKeys.length > 0,
    });
  });
});
