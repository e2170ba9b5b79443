// What every reader shares: an entry's fields read by their types (the whole file refused, with one
// sentence, when a field that makes the card has the wrong one), a lorebook entry made into a card
// and checked as the card form checks it (a bad entry is set aside with its reason, not the whole
// file), the notes on fields Taleweaver has no use for (one line per field name, so a big file still
// gives a short list), and the bound on the entries one file may hold.
import type { z } from 'zod';
import {
  CARD_NAME_MAX_LENGTH,
  neverSent,
  STORY_CARD_MESSAGES,
  storyCardFieldsSchema,
  type IgnoredEntry,
  type StoryCardFields,
  type StoryCardInput,
} from '@shared/schemas/story-cards';
import { CardFileError } from './errors';

/** An entry as a reader made it: the card to check, and how the player would recognise the entry. */
export interface Candidate {
  label: string;
  card: StoryCardInput;
}

export interface CheckedCards {
  cards: StoryCardFields[];
  ignored: IgnoredEntry[];
}

/** Fields of the file with no meaning here, counted per field name over the whole file. */
export class FieldNotes {
  private readonly notes = new Map<string, { count: number; reason: string }>();

  note(field: string, reason: string): void {
    const seen = this.notes.get(field);
    if (seen) seen.count += 1;
    else this.notes.set(field, { count: 1, reason });
  }

  /** A note about the file as a whole (a lorebook's own setting), not counted in entries. */
  noteFile(field: string, reason: string): void {
    this.notes.set(field, { count: 0, reason });
  }

  lines(): IgnoredEntry[] {
    return [...this.notes].map(([field, { count, reason }]) => ({
      entry: count === 0 ? `${field} (the whole file)` : `${field} (${count} ${count === 1 ? 'entry' : 'entries'})`,
      reason,
    }));
  }
}

/**
 * Entries read from one file at most, per card a story may hold (STORY_MAX_CARDS): a file may hold
 * entries that are set aside (empty, never sent, refused by the form), but a story keeps no more
 * than its cards, so a file of twice as many is refused before any entry is read. A 5 MB file could
 * otherwise hold some 170,000 tiny entries, each one read, checked and answered.
 */
export const ENTRIES_PER_STORY_CARD = 2;

/** Refuses, before any entry is read, a file of more entries than ENTRIES_PER_STORY_CARD times the cards a story may hold. */
export function checkEntryCount(entries: number, maxCards: number): void {
  const most = ENTRIES_PER_STORY_CARD * maxCards;
  if (entries <= most) return;
  const n = (value: number) => value.toLocaleString('en-US');
  throw new CardFileError(
    `This file has ${n(entries)} entries: Taleweaver reads at most ${n(most)} from one file, twice the ${n(maxCards)} cards a story may hold. Split it into smaller files.`,
  );
}

/** Each candidate checked as the card form checks it; those that fail are set aside with the form's message. */
export function checkCards(candidates: Candidate[], notes: FieldNotes): CheckedCards {
  const cards: StoryCardFields[] = [];
  const ignored: IgnoredEntry[] = [];
  for (const { label, card } of candidates) {
    const parsed = storyCardFieldsSchema.safeParse(card);
    if (!parsed.success) ignored.push({ entry: label, reason: reasonFor(parsed.error.issues[0]) });
    else if (neverSent(parsed.data)) ignored.push({ entry: label, reason: STORY_CARD_MESSAGES.neverSent });
    else cards.push(parsed.data);
  }
  return { cards, ignored: [...ignored, ...notes.lines()] };
}

const MESSAGES = new Set<string>(Object.values(STORY_CARD_MESSAGES).filter((text) => typeof text === 'string'));
const TYPE_WORDS: Record<string, string> = {
  string: 'text',
  number: 'a number',
  boolean: 'true or false',
  array: 'a list',
};

/** The card form's own sentence where it has one; otherwise one naming the field (a cards file written by hand). */
function reasonFor(issue: z.core.$ZodIssue): string {
  if (MESSAGES.has(issue.message)) return issue.message;
  const field = issue.path.join('.');
  if (issue.path.length === 0) return 'This is not a card: a card is an object of fields.';
  if (issue.code === 'invalid_type') return `Its '${field}' is not ${TYPE_WORDS[issue.expected] ?? issue.expected}.`;
  if (issue.code === 'invalid_value') return `Its '${field}' is not one of ${issue.values.join(', ')}.`;
  return `Its '${field}' is out of range.`;
}

/** A tuning field of a file-level schema (a lorebook's own settings): its type when present, else null. */
export const lenient = <T extends z.ZodType>(schema: T) => schema.nullish().catch(null);

/** What a field should be: the check, and the words the file's refusal says it in. */
export interface FieldType<T> {
  is: (value: unknown) => value is T;
  words: string;
}

/** The types entries' fields have; a number is finite, as JSON's numbers are and the card form's must be. */
const isText = (value: unknown): value is string => typeof value === 'string';
const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
export const TEXT: FieldType<string> = { is: isText, words: 'text' };
export const NUMBER: FieldType<number> = { is: isNumber, words: 'a number' };
export const FLAG: FieldType<boolean> = {
  is: (value): value is boolean => typeof value === 'boolean',
  words: 'true or false',
};
export const STRINGS: FieldType<string[]> = {
  is: (value): value is string[] => Array.isArray(value) && value.every(isText),
  words: 'a list of strings',
};
/** An entry's own id: SillyTavern and the card specs write numbers (so the refusal says one), some editors strings. */
export const ID: FieldType<number | string> = {
  is: (value): value is number | string => isNumber(value) || isText(value),
  words: 'a number',
};
export const LIST: FieldType<unknown[]> = { is: (value): value is unknown[] => Array.isArray(value), words: 'a list' };
export const FIELDS: FieldType<Record<string, unknown>> = {
  is: (value): value is Record<string, unknown> => isRecord(value),
  words: 'an object of fields',
};

/** A tuning value of the type, else null: a missing, null or odd setting leaves Taleweaver's default. */
export const tuned = <T>(value: unknown, type: FieldType<T>): T | null => (type.is(value) ? value : null);

/**
 * One entry of a file, read field by field with plain type checks: each entry is read once here
 * and its card once by the card form (checkCards), not first by a schema of the format's own. A
 * field that makes the card (`field`) is null when missing or null and refuses the whole file when
 * of another type, naming the format, the entry and the field; a reader reads those fields in one
 * fixed order, so the field named is the same whatever order the file wrote them in. A tuning
 * field (`tuning`) is null when missing or odd.
 */
export class EntryReader {
  private constructor(
    private readonly format: string,
    private readonly entry: string,
    /** The entry as the file has it, for the notes on settings Taleweaver does not use. */
    readonly fields: Record<string, unknown>,
  ) {}

  /** `format` and `entry` as the refusal names them: "a NovelAI lorebook", "entry 3". */
  static of(format: string, entry: string, value: unknown): EntryReader {
    if (!isRecord(value)) throw new CardFileError(`This is ${format}, but ${entry} is not an object of fields.`);
    return new EntryReader(format, entry, value);
  }

  field<T>(name: string, type: FieldType<T>): T | null {
    const value = this.fields[name];
    if (value == null) return null;
    if (type.is(value)) return value;
    throw new CardFileError(`This is ${this.format}, but ${this.entry}'s '${name}' is not ${type.words}.`);
  }

  tuning<T>(name: string, type: FieldType<T>): T | null {
    return tuned(this.fields[name], type);
  }
}

/** An integer within bounds; lorebooks write orders and depths the card form would refuse. */
export const clampInt = (value: number, min: number, max: number) => Math.min(max, Math.max(min, Math.round(value)));

/** `{[to]: value}` brought within the card form's bounds (and noted when it had to be), or nothing when absent. */
export function limited<K extends string>(
  from: string,
  to: K,
  value: number | null | undefined,
  min: number,
  max: number,
  notes: FieldNotes,
): Partial<Record<K, number>> {
  if (value == null || !Number.isFinite(value)) return {};
  const within = clampInt(value, min, max);
  if (within !== Math.round(value))
    notes.note(from, `Taleweaver's ${to} runs from ${min} to ${max}; values beyond were brought within.`);
  return { [to]: within } as Partial<Record<K, number>>;
}

/** The first name that is not blank, cut to the card form's length: a long memo should not cost the entry. */
export function cardName(names: (string | null | undefined)[], fallback: string): string {
  const name = names.map((text) => text?.trim() ?? '').find((text) => text !== '') ?? fallback;
  return name.length <= CARD_NAME_MAX_LENGTH ? name : `${name.slice(0, CARD_NAME_MAX_LENGTH - 1).trimEnd()}…`;
}

/** Blank keys say nothing (editors leave them behind); dropping them keeps the entry. */
export const keyList = (keys: string[] | null | undefined) => (keys ?? []).filter((key) => key.trim() !== '');

/**
 * The file's sentence for a lorebook of the wrong shape (EntryReader's sentence for an entry), from
 * the first zod issue of the lorebook's schema, read once per file: the field it names and what that
 * field should have been (`expected` says it in words, per field).
 */
export function shapeError(
  format: string,
  entry: string,
  error: z.ZodError,
  expected: Record<string, string>,
): CardFileError {
  const field = error.issues[0]?.path[0];
  if (typeof field !== 'string')
    return new CardFileError(`This is ${format}, but ${entry} is not an object of fields.`);
  const words = expected[field] ?? 'of the expected type';
  return new CardFileError(`This is ${format}, but ${entry}'s '${field}' is not ${words}.`);
}

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
