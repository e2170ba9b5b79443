// SillyTavern World Info files, read and written. An entry's keys, secondary keys and their logic,
// content, constant, disable, order, scan depth, case and whole-word matching, recursion, sticky,
// cooldown and delay carry over; settings with no meaning here are noted (sillytavern-fields.ts).
// Old exports carry only the first handful of fields; the rest fall back to Taleweaver's defaults
// (a null in a modern export means "the global setting", which is Taleweaver's default too).
import {
  CARD_PRIORITY_LIMIT,
  CARD_SCAN_DEPTH_MAX,
  CARD_TURNS_MAX,
  type StoryCardFields,
} from '@shared/schemas/story-cards';
import {
  type Candidate,
  cardName,
  type CheckedCards,
  checkCards,
  checkEntryCount,
  EntryReader,
  FieldNotes,
  FLAG,
  ID,
  isRecord,
  keyList,
  limited,
  NUMBER,
  STRINGS,
  TEXT,
} from './entries';
import { CardFileError } from './errors';
import { noteUnusedFields, ST_DEPTH_DEFAULT, ST_LOGIC, stPosition } from './sillytavern-fields';

const FORMAT = 'a SillyTavern World Info file';

/**
 * An entry's fields: those that make the card must have their types (read in this order, so a
 * refusal names the same field whatever the file's order); the tuning ones fall back to the default
 * when odd.
 */
function readEntry(value: unknown, uid: string) {
  const fields = EntryReader.of(FORMAT, `entry ${uid}`, value);
  return {
    uid: fields.field('uid', ID),
    key: fields.field('key', STRINGS),
    keysecondary: fields.field('keysecondary', STRINGS),
    comment: fields.field('comment', TEXT),
    content: fields.field('content', TEXT),
    constant: fields.field('constant', FLAG),
    disable: fields.field('disable', FLAG),
    order: fields.field('order', NUMBER),
    selective: fields.field('selective', FLAG),
    selectiveLogic: fields.tuning('selectiveLogic', NUMBER),
    caseSensitive: fields.tuning('caseSensitive', FLAG),
    matchWholeWords: fields.tuning('matchWholeWords', FLAG),
    scanDepth: fields.tuning('scanDepth', NUMBER),
    preventRecursion: fields.tuning('preventRecursion', FLAG),
    sticky: fields.tuning('sticky', NUMBER),
    cooldown: fields.tuning('cooldown', NUMBER),
    delay: fields.tuning('delay', NUMBER),
    displayIndex: fields.tuning('displayIndex', NUMBER),
    /** The entry as written, for the settings with no meaning here. */
    written: fields.fields,
  };
}
type Entry = ReturnType<typeof readEntry>;

export const isSillyTavernFile = (file: Record<string, unknown>) => 'entries' in file;

/** A World Info file's entries as cards; `entries` may be an object keyed by uid or, in some exports, an array. */
export function readSillyTavern(file: Record<string, unknown>, maxCards: number): CheckedCards {
  const { entries } = file;
  if (typeof entries !== 'object' || entries === null)
    throw new CardFileError(`This is ${FORMAT}, but its 'entries' is neither a list nor an object of entries.`);
  checkEntryCount(Array.isArray(entries) ? entries.length : Object.keys(entries).length, maxCards);
  const listed: [string, unknown][] = Array.isArray(entries)
    ? entries.map((entry, index) => [String(index), entry])
    : Object.entries(entries);
  if (listed.length === 0) throw new CardFileError(`This is ${FORMAT}, but it has no entries.`);

  const parsed = listed.map(([position, value]) => {
    const uid = String((isRecord(value) && typeof value.uid === 'number' ? value.uid : null) ?? position);
    return { uid, entry: readEntry(value, uid) };
  });
  // The editor's order when the file keeps it for every entry; the file's order otherwise.
  if (parsed.every(({ entry }) => typeof entry.displayIndex === 'number')) {
    parsed.sort((a, b) => (a.entry.displayIndex ?? 0) - (b.entry.displayIndex ?? 0));
  }
  const notes = new FieldNotes();
  return checkCards(
    parsed.map(({ uid, entry }) => candidate(uid, entry, notes)),
    notes,
  );
}

function candidate(uid: string, entry: Entry, notes: FieldNotes): Candidate {
  const keys = keyList(entry.key);
  const secondary = keyList(entry.keysecondary);
  // SillyTavern uses secondary keys only when the entry is selective.
  if (entry.selective === false && secondary.length > 0) {
    notes.note(
      'keysecondary',
      'These entries were not selective, so SillyTavern never used their secondary keys: they were left out.',
    );
  }
  const logic = entry.selectiveLogic ?? 0;
  if (ST_LOGIC[logic] === undefined) {
    notes.note(
      'selectiveLogic',
      "An unknown secondary-key logic was read as 'and any' (one of the secondary keys too).",
    );
  }
  noteUnusedFields(entry.written, notes);
  const name = cardName([entry.comment, keys[0]], `Entry ${uid}`);
  return {
    label: cardName([entry.comment, keys[0]], `entry ${uid}`),
    card: {
      name,
      keys,
      secondaryKeys: entry.selective === false ? [] : secondary,
      secondaryLogic: ST_LOGIC[logic] ?? 'andAny',
      content: entry.content ?? '',
      alwaysOn: entry.constant ?? false,
      enabled: !(entry.disable ?? false),
      ...limited('order', 'priority', entry.order, -CARD_PRIORITY_LIMIT, CARD_PRIORITY_LIMIT, notes),
      ...(entry.caseSensitive != null && { caseSensitive: entry.caseSensitive }),
      ...(entry.matchWholeWords != null && { wholeWords: entry.matchWholeWords }),
      ...limited('scanDepth', 'scanDepth', entry.scanDepth, 0, CARD_SCAN_DEPTH_MAX, notes),
      // preventRecursion: the entry's content does not trigger others. Old files have none: no recursion.
      recursive: entry.preventRecursion != null && !entry.preventRecursion,
      ...limited('sticky', 'sticky', entry.sticky, 0, CARD_TURNS_MAX, notes),
      ...limited('cooldown', 'cooldown', entry.cooldown, 0, CARD_TURNS_MAX, notes),
      ...limited('delay', 'delay', entry.delay, 0, CARD_TURNS_MAX, notes),
    },
  };
}

/**
 * The cards as a World Info file SillyTavern imports as it is, with the modern field set. Placement:
 * an always-on card goes before the character definitions (position 0, the prompt's stable head,
 * where Taleweaver sends them); a triggered one at depth 4 (position 4, SillyTavern's default depth:
 * among the latest turns, near the action, where Taleweaver puts it). Sticky, cooldown and delay
 * count SillyTavern's messages where Taleweaver counts turns: the numbers are kept as they are.
 */
export function writeSillyTavern(cards: StoryCardFields[]): string {
  const entries = Object.fromEntries(cards.map((card, uid) => [String(uid), sillyTavernEntry(card, uid)]));
  return `${JSON.stringify({ entries }, null, 2)}\n`;
}

function sillyTavernEntry(card: StoryCardFields, uid: number) {
  return {
    uid,
    key: card.keys,
    keysecondary: card.secondaryKeys,
    comment: card.name,
    content: card.content,
    constant: card.alwaysOn,
    vectorized: false,
    selective: card.secondaryKeys.length > 0,
    selectiveLogic: ST_LOGIC.indexOf(card.secondaryLogic),
    addMemo: true,
    order: card.priority,
    position: stPosition(card.alwaysOn),
    disable: !card.enabled,
    ignoreBudget: false,
    excludeRecursion: false,
    preventRecursion: !card.recursive,
    matchPersonaDescription: false,
    matchCharacterDescription: false,
    matchCharacterPersonality: false,
    matchCharacterDepthPrompt: false,
    matchScenario: false,
    matchCreatorNotes: false,
    delayUntilRecursion: false,
    probability: 100,
    useProbability: true,
    depth: ST_DEPTH_DEFAULT,
    outletName: '',
    group: '',
    groupOverride: false,
    groupWeight: 100,
    scanDepth: card.scanDepth,
    caseSensitive: card.caseSensitive,
    matchWholeWords: card.wholeWords,
    useGroupScoring: null,
    automationId: '',
    // null: SillyTavern sends an entry at depth as a system message.
    role: null,
    sticky: card.sticky,
    cooldown: card.cooldown,
    delay: card.delay,
    triggers: [],
    displayIndex: uid,
    characterFilter: { isExclude: false, names: [], tags: [] },
  };
}
