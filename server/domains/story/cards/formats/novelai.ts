// NovelAI lorebooks (.lorebook): `{lorebookVersion, entries: [{displayName, keys, text, …}]}`. A
// key written /pattern/flags is a regular expression in NovelAI as in Taleweaver; other keys match
// anywhere in a word, any case, so the cards keep that (whole words off). NovelAI scans characters
// where Taleweaver scans messages: searchRange becomes about one message per 600 characters.
import { CARD_PRIORITY_LIMIT, CARD_SCAN_DEPTH_MAX } from '@shared/schemas/story-cards';
import {
  type Candidate,
  cardName,
  type CheckedCards,
  checkCards,
  checkEntryCount,
  clampInt,
  EntryReader,
  FieldNotes,
  FIELDS,
  type FieldType,
  FLAG,
  isRecord,
  keyList,
  limited,
  LIST,
  NUMBER,
  STRINGS,
  TEXT,
  tuned,
} from './entries';
import { CardFileError } from './errors';

const FORMAT = 'a NovelAI lorebook';
const CHARACTERS_PER_MESSAGE = 600;
const SEARCH_RANGE_DEFAULT = 1000;

/**
 * An entry's fields: those that make the card must have their types (read in this order, so a
 * refusal names the same field whatever the file's order); the tuning ones, contextConfig's
 * settings among them, fall back to the default when odd.
 */
function readEntry(value: unknown, position: number) {
  const fields = EntryReader.of(FORMAT, `entry ${position}`, value);
  return {
    displayName: fields.field('displayName', TEXT),
    keys: fields.field('keys', STRINGS),
    text: fields.field('text', TEXT),
    enabled: fields.field('enabled', FLAG),
    forceActivation: fields.field('forceActivation', FLAG),
    searchRange: fields.field('searchRange', NUMBER),
    keyRelative: fields.tuning('keyRelative', FLAG),
    nonStoryActivatable: fields.tuning('nonStoryActivatable', FLAG),
    category: fields.tuning('category', TEXT),
    loreBiasGroups: fields.tuning('loreBiasGroups', LIST),
    contextConfig: fields.tuning('contextConfig', FIELDS),
  };
}
type Entry = ReturnType<typeof readEntry>;

const PLACEMENT =
  'Taleweaver places cards itself: before the recent turns when always on, next to the action when triggered.';
const BUDGET = "Taleweaver gives the cards their part of the narrator's window itself, and sends each card whole.";

/**
 * contextConfig's settings with no meaning here, of their types (a value of another is no setting),
 * with NovelAI's defaults (tokenBudget: 1 since v4, 2048 before).
 */
const UNUSED_CONTEXT: { field: string; type: FieldType<string | number>; defaults: unknown[]; reason: string }[] = [
  { field: 'insertionPosition', type: NUMBER, defaults: [-1], reason: PLACEMENT },
  { field: 'insertionType', type: TEXT, defaults: ['newline'], reason: PLACEMENT },
  {
    field: 'prefix',
    type: TEXT,
    defaults: [''],
    reason: "Taleweaver sends a card's content as it is, without a prefix or suffix.",
  },
  {
    field: 'suffix',
    type: TEXT,
    defaults: ['\n', ''],
    reason: "Taleweaver sends a card's content as it is, without a prefix or suffix.",
  },
  { field: 'tokenBudget', type: NUMBER, defaults: [1, 2048], reason: BUDGET },
  { field: 'reservedTokens', type: NUMBER, defaults: [0], reason: BUDGET },
  { field: 'trimDirection', type: TEXT, defaults: ['trimBottom'], reason: BUDGET },
  { field: 'maximumTrimType', type: TEXT, defaults: ['sentence'], reason: BUDGET },
];

export const isNovelAiFile = (file: Record<string, unknown>) => 'lorebookVersion' in file;

export function readNovelAi(file: Record<string, unknown>, maxCards: number): CheckedCards {
  const { entries } = file;
  if (!Array.isArray(entries))
    throw new CardFileError(`This is ${FORMAT}, but its 'entries' is not a list of entries.`);
  checkEntryCount(entries.length, maxCards);
  if (entries.length === 0) throw new CardFileError(`This is ${FORMAT}, but it has no entries.`);
  const notes = new FieldNotes();
  const candidates = entries.map((value, index) => candidate(readEntry(value, index + 1), index + 1, notes));
  return checkCards(candidates, notes);
}

function candidate(entry: Entry, position: number, notes: FieldNotes): Candidate {
  const context = entry.contextConfig ?? {};
  for (const { field, type, defaults, reason } of UNUSED_CONTEXT) {
    const setting = tuned(context[field], type);
    if (setting != null && !defaults.includes(setting)) notes.note(`contextConfig.${field}`, reason);
  }
  if (entry.keyRelative) {
    notes.note('keyRelative', 'Taleweaver places a card by itself, not relative to where its key was found.');
  }
  if (entry.nonStoryActivatable) {
    notes.note(
      'nonStoryActivatable',
      "Taleweaver looks for keys in the story's turns, not in other cards or the memory.",
    );
  }
  if (entry.category)
    notes.note('category', 'Taleweaver has no card categories: the cards were imported without theirs.');
  if (entry.loreBiasGroups?.some(hasPhrases)) {
    notes.note('loreBiasGroups', 'Taleweaver cannot bias the narrator towards or away from words.');
  }
  if (entry.searchRange != null && entry.searchRange !== SEARCH_RANGE_DEFAULT) {
    notes.note(
      'searchRange',
      `NovelAI searches characters, Taleweaver messages: about one message per ${CHARACTERS_PER_MESSAGE} characters was used.`,
    );
  }
  const keys = keyList(entry.keys);
  return {
    label: cardName([entry.displayName, keys[0]], `entry ${position}`),
    card: {
      name: cardName([entry.displayName, keys[0]], `Entry ${position}`),
      keys,
      content: entry.text ?? '',
      alwaysOn: entry.forceActivation ?? false,
      enabled: entry.enabled ?? true,
      ...limited(
        'contextConfig.budgetPriority',
        'priority',
        tuned(context.budgetPriority, NUMBER),
        -CARD_PRIORITY_LIMIT,
        CARD_PRIORITY_LIMIT,
        notes,
      ),
      wholeWords: false,
      scanDepth: clampInt((entry.searchRange ?? SEARCH_RANGE_DEFAULT) / CHARACTERS_PER_MESSAGE, 1, CARD_SCAN_DEPTH_MAX),
    },
  };
}

const hasPhrases = (group: unknown) => isRecord(group) && Array.isArray(group.phrases) && group.phrases.length > 0;
