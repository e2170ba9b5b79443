// NovelAI lorebooks (.lorebook): `{lorebookVersion, entries: [{displayName, keys, text, …}]}`. A
// key written /pattern/flags is a regular expression in NovelAI as in Taleweaver; other keys match
// anywhere in a word, any case, so the cards keep that (whole words off). NovelAI scans characters
// where Taleweaver scans messages: searchRange becomes about one message per 600 characters.
import { z } from 'zod';
import { CARD_PRIORITY_LIMIT, CARD_SCAN_DEPTH_MAX } from '@shared/schemas/story-cards';
import {
  type Candidate,
  cardName,
  type CheckedCards,
  checkCards,
  checkEntryCount,
  clampInt,
  FieldNotes,
  isRecord,
  keyList,
  limited,
  shapeError,
  lenient,
} from './entries';
import { CardFileError } from './errors';

const FORMAT = 'a NovelAI lorebook';
const CHARACTERS_PER_MESSAGE = 600;
const SEARCH_RANGE_DEFAULT = 1000;

const contextSchema = z.looseObject({
  prefix: lenient(z.string()),
  suffix: lenient(z.string()),
  tokenBudget: lenient(z.number()),
  reservedTokens: lenient(z.number()),
  budgetPriority: lenient(z.number()),
  trimDirection: lenient(z.string()),
  insertionType: lenient(z.string()),
  maximumTrimType: lenient(z.string()),
  insertionPosition: lenient(z.number()),
});
const entrySchema = z.looseObject({
  id: lenient(z.string()),
  displayName: z.string().nullish(),
  keys: z.array(z.string()).nullish(),
  text: z.string().nullish(),
  enabled: z.boolean().nullish(),
  forceActivation: z.boolean().nullish(),
  searchRange: z.number().nullish(),
  keyRelative: lenient(z.boolean()),
  nonStoryActivatable: lenient(z.boolean()),
  category: lenient(z.string()),
  loreBiasGroups: lenient(z.array(z.unknown())),
  contextConfig: lenient(contextSchema),
});
type Entry = z.infer<typeof entrySchema>;
const EXPECTED: Record<string, string> = {
  displayName: 'text',
  keys: 'a list of strings',
  text: 'text',
  enabled: 'true or false',
  forceActivation: 'true or false',
  searchRange: 'a number',
};

const PLACEMENT =
  'Taleweaver places cards itself: before the recent turns when always on, next to the action when triggered.';
const BUDGET = "Taleweaver gives the cards their part of the narrator's window itself, and sends each card whole.";

/** contextConfig's settings with no meaning here, with NovelAI's defaults (tokenBudget: 1 since v4, 2048 before). */
const UNUSED_CONTEXT: { field: keyof z.infer<typeof contextSchema>; defaults: unknown[]; reason: string }[] = [
  { field: 'insertionPosition', defaults: [-1], reason: PLACEMENT },
  { field: 'insertionType', defaults: ['newline'], reason: PLACEMENT },
  {
    field: 'prefix',
    defaults: [''],
    reason: "Taleweaver sends a card's content as it is, without a prefix or suffix.",
  },
  {
    field: 'suffix',
    defaults: ['\n', ''],
    reason: "Taleweaver sends a card's content as it is, without a prefix or suffix.",
  },
  { field: 'tokenBudget', defaults: [1, 2048], reason: BUDGET },
  { field: 'reservedTokens', defaults: [0], reason: BUDGET },
  { field: 'trimDirection', defaults: ['trimBottom'], reason: BUDGET },
  { field: 'maximumTrimType', defaults: ['sentence'], reason: BUDGET },
];

export const isNovelAiFile = (file: Record<string, unknown>) => 'lorebookVersion' in file;

export function readNovelAi(file: Record<string, unknown>, maxCards: number): CheckedCards {
  const { entries } = file;
  if (!Array.isArray(entries))
    throw new CardFileError(`This is ${FORMAT}, but its 'entries' is not a list of entries.`);
  checkEntryCount(entries.length, maxCards);
  if (entries.length === 0) throw new CardFileError(`This is ${FORMAT}, but it has no entries.`);
  const notes = new FieldNotes();
  const candidates = entries.map((value, index) => {
    const entry = entrySchema.safeParse(value);
    if (!entry.success) throw shapeError(FORMAT, `entry ${index + 1}`, entry.error, EXPECTED);
    return candidate(entry.data, index + 1, notes);
  });
  return checkCards(candidates, notes);
}

function candidate(entry: Entry, position: number, notes: FieldNotes): Candidate {
  const context = entry.contextConfig ?? {};
  for (const { field, defaults, reason } of UNUSED_CONTEXT) {
    if (context[field] != null && !defaults.includes(context[field])) notes.note(`contextConfig.${field}`, reason);
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
        context.budgetPriority,
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
