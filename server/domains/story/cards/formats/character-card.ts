// Character cards (V2 and V3, as JSON or inside a PNG) carry a lorebook, `data.character_book`:
// its entries become cards. SillyTavern keeps its own entry settings in each entry's `extensions`
// under snake_case names; those with a meaning here are read, the others noted as World Info's are.
// A standalone character book (the lorebook alone, `{entries: [{keys, content, …}]}`) reads the same.
import { z } from 'zod';
import {
  CARD_PRIORITY_LIMIT,
  CARD_SCAN_DEPTH_MAX,
  CARD_TURNS_MAX,
  type CardSecondaryLogic,
} from '@shared/schemas/story-cards';
import {
  type Candidate,
  cardName,
  type CheckedCards,
  checkCards,
  checkEntryCount,
  EntryReader,
  FieldNotes,
  FIELDS,
  FLAG,
  ID,
  isRecord,
  keyList,
  lenient,
  limited,
  NUMBER,
  shapeError,
  STRINGS,
  TEXT,
} from './entries';
import { CardFileError } from './errors';
import { noteUnusedFields, ST_LOGIC } from './sillytavern-fields';

export const NO_LOREBOOK = 'This character card has no lorebook (character_book) to import.';
const SPECS: Record<string, string> = { chara_card_v2: 'a Character Card V2', chara_card_v3: 'a Character Card V3' };

/**
 * A lorebook entry's fields: those that make the card must have their types (read in this order, so
 * a refusal names the same field whatever the file's order); the tuning ones fall back to the
 * default when odd.
 */
function readEntry(value: unknown, format: string, entry: string) {
  const fields = EntryReader.of(format, entry, value);
  return {
    id: fields.field('id', ID),
    keys: fields.field('keys', STRINGS),
    secondary_keys: fields.field('secondary_keys', STRINGS),
    content: fields.field('content', TEXT),
    enabled: fields.field('enabled', FLAG),
    insertion_order: fields.field('insertion_order', NUMBER),
    constant: fields.field('constant', FLAG),
    selective: fields.field('selective', FLAG),
    comment: fields.field('comment', TEXT),
    name: fields.field('name', TEXT),
    case_sensitive: fields.tuning('case_sensitive', FLAG),
    use_regex: fields.tuning('use_regex', FLAG),
    priority: fields.tuning('priority', NUMBER),
    position: fields.tuning('position', TEXT),
    extensions: fields.tuning('extensions', FIELDS),
  };
}
type Entry = ReturnType<typeof readEntry>;

// The lorebook itself: its schema reads it once per file.
const bookSchema = z.looseObject({
  entries: z.array(z.unknown(), { error: 'a list of entries' }),
  scan_depth: lenient(z.number()),
  token_budget: lenient(z.number()),
  recursive_scanning: lenient(z.boolean()),
});
type Book = z.infer<typeof bookSchema>;

/** SillyTavern's names in a card entry's `extensions`, by their World Info names. */
const EXTENSION_NAMES: Record<string, string> = {
  position: 'position',
  depth: 'depth',
  role: 'role',
  probability: 'probability',
  useProbability: 'useProbability',
  group: 'group',
  groupOverride: 'group_override',
  groupWeight: 'group_weight',
  useGroupScoring: 'use_group_scoring',
  excludeRecursion: 'exclude_recursion',
  delayUntilRecursion: 'delay_until_recursion',
  vectorized: 'vectorized',
  ignoreBudget: 'ignore_budget',
  automationId: 'automation_id',
  outletName: 'outlet_name',
  triggers: 'triggers',
  matchPersonaDescription: 'match_persona_description',
  matchCharacterDescription: 'match_character_description',
  matchCharacterPersonality: 'match_character_personality',
  matchCharacterDepthPrompt: 'match_character_depth_prompt',
  matchScenario: 'match_scenario',
  matchCreatorNotes: 'match_creator_notes',
};

export const isCharacterCard = (file: Record<string, unknown>) =>
  (typeof file.spec === 'string' && file.spec in SPECS) || (isRecord(file.data) && 'character_book' in file.data);

/** A V1 card (the character's fields at the top level) never had a lorebook. */
export const isCharacterCardV1 = (file: Record<string, unknown>) => 'first_mes' in file && 'name' in file;

/** A character book on its own: entries with `keys` (World Info's have `key`, NovelAI's `text`). */
export const isCharacterBook = (file: Record<string, unknown>) =>
  Array.isArray(file.entries) && isRecord(file.entries[0]) && 'keys' in file.entries[0] && 'content' in file.entries[0];

export function readCharacterCard(file: Record<string, unknown>, maxCards: number): CheckedCards {
  const format = SPECS[String(file.spec)] ?? 'a character card';
  if (!isRecord(file.data)) throw new CardFileError(`This is ${format}, but its 'data' is not an object.`);
  const book = file.data.character_book;
  if (book == null || (isRecord(book) && Array.isArray(book.entries) && book.entries.length === 0)) {
    throw new CardFileError(NO_LOREBOOK);
  }
  return readBook(book, maxCards, format, 'its lorebook', 'lorebook entry');
}

export function readCharacterBook(file: Record<string, unknown>, maxCards: number): CheckedCards {
  return readBook(file, maxCards, 'a character lorebook', 'the file', 'entry');
}

/** `book` and `entry` name the lorebook and its entries in the file's sentence for a wrong shape. */
function readBook(value: unknown, maxCards: number, format: string, bookName: string, entryName: string): CheckedCards {
  if (isRecord(value) && Array.isArray(value.entries)) checkEntryCount(value.entries.length, maxCards);
  const parsed = bookSchema.safeParse(value);
  if (!parsed.success) {
    throw shapeError(format, bookName, parsed.error, { entries: 'a list of entries' });
  }
  const book = parsed.data;
  if (book.entries.length === 0) throw new CardFileError(`This is ${format}, but it has no entries.`);
  const notes = new FieldNotes();
  if (book.token_budget != null) {
    notes.noteFile('token_budget', "Taleweaver gives the cards their part of the narrator's window itself.");
  }
  const candidates = book.entries.map((value, index) => {
    const id = isRecord(value) && (typeof value.id === 'number' || typeof value.id === 'string') ? value.id : index + 1;
    return candidate(readEntry(value, format, `${entryName} ${id}`), id, book, notes);
  });
  return checkCards(candidates, notes);
}

function candidate(entry: Entry, id: string | number, book: Book, notes: FieldNotes): Candidate {
  const ext = entry.extensions ?? {};
  const num = (name: string) => (typeof ext[name] === 'number' ? (ext[name] as number) : null);
  const bool = (name: string) => (typeof ext[name] === 'boolean' ? (ext[name] as boolean) : null);

  // SillyTavern's settings by their World Info names, so World Info's rules say which were used.
  const settings: Record<string, unknown> = { constant: entry.constant === true };
  for (const [field, name] of Object.entries(EXTENSION_NAMES)) if (name in ext) settings[field] = ext[name];
  noteUnusedFields(settings, notes, (field) => `extensions.${EXTENSION_NAMES[field] ?? field}`);
  if (!('position' in ext) && entry.position != null && entry.position !== 'before_char') {
    notes.note(
      'position',
      'Taleweaver places cards itself: before the recent turns when always on, next to the action when triggered.',
    );
  }
  if (entry.priority != null && entry.insertion_order != null && entry.priority !== entry.insertion_order) {
    notes.note('priority', "Taleweaver keeps one priority per card, taken from the entry's insertion_order.");
  }

  const caseSensitive = entry.case_sensitive ?? bool('case_sensitive');
  // use_regex: every key is a pattern, which Taleweaver writes /pattern/flags. SillyTavern's export
  // sets it on every entry (its keys are plain unless written /…/): its entries keep their keys.
  const fromSillyTavern = typeof ext.display_index === 'number' || typeof ext.position === 'number';
  const regex = entry.use_regex === true && !fromSillyTavern;
  const asKey = (key: string) => (regex ? `/${key}/${caseSensitive ? '' : 'i'}` : key);
  const keys = keyList(entry.keys).map(asKey);
  const secondary = keyList(entry.secondary_keys).map(asKey);
  // The V2 spec uses secondary keys only when the entry is selective.
  if (entry.selective !== true && secondary.length > 0) {
    notes.note(
      'secondary_keys',
      'These entries were not selective, so their secondary keys were never used: they were left out.',
    );
  }
  const logic: CardSecondaryLogic | undefined = ST_LOGIC[num('selectiveLogic') ?? 0];
  const preventRecursion = bool('prevent_recursion');
  const name = cardName([entry.comment, entry.name, keys[0]], `Entry ${id}`);
  return {
    label: cardName([entry.comment, entry.name, keys[0]], `entry ${id}`),
    card: {
      name,
      keys,
      secondaryKeys: entry.selective === true ? secondary : [],
      secondaryLogic: logic ?? 'andAny',
      content: entry.content ?? '',
      alwaysOn: entry.constant ?? false,
      enabled: entry.enabled ?? true,
      ...limited(
        'insertion_order',
        'priority',
        entry.insertion_order,
        -CARD_PRIORITY_LIMIT,
        CARD_PRIORITY_LIMIT,
        notes,
      ),
      ...(caseSensitive != null && { caseSensitive }),
      ...(bool('match_whole_words') != null && { wholeWords: bool('match_whole_words') ?? true }),
      ...limited('scan_depth', 'scanDepth', num('scan_depth') ?? book.scan_depth, 0, CARD_SCAN_DEPTH_MAX, notes),
      recursive: preventRecursion != null ? !preventRecursion : (book.recursive_scanning ?? false),
      ...limited('extensions.sticky', 'sticky', num('sticky'), 0, CARD_TURNS_MAX, notes),
      ...limited('extensions.cooldown', 'cooldown', num('cooldown'), 0, CARD_TURNS_MAX, notes),
      ...limited('extensions.delay', 'delay', num('delay'), 0, CARD_TURNS_MAX, notes),
    },
  };
}
