// Story cards: a story's lore, each card a few facts about a person, place or thing
// that enters the narrator's prompt when one of its keys comes up (or always, when it is always on),
// and the context record that says what the narrator was sent for a reply, and why.
// GET/POST /api/story/{id}/cards, PATCH/DELETE /api/story/{id}/cards/{cardId},
// POST /api/story/{id}/cards/import, GET /api/story/{id}/cards/export?format=taleweaver|sillytavern,
// GET /api/story/{id}/messages/{messageId}/context[?version=N].
import { z } from 'zod';
import { numericId, replyUsageSchema, STORY_MESSAGES } from './story';

export const CARD_NAME_MAX_LENGTH = 100;
export const CARD_KEYS_MAX = 20;
export const CARD_KEY_MAX_LENGTH = 100;
export const CARD_CONTENT_MAX_LENGTH = 8000;
/** A story's cards at most (STORY_MAX_CARDS changes it). */
export const STORY_CARDS_MAX_DEFAULT = 1000;
/** An import's body at most: a lorebook file, or a PNG character card as players share them. */
export const CARD_IMPORT_MAX_BYTES = 5 * 1024 * 1024;
export const CARD_SCAN_DEPTH_DEFAULT = 4;
/**
 * Messages a card may scan besides the action. Regular-expression keys run on RE2 in linear time,
 * about 17 µs per KB of text scanned: with at most STORY_REGEX_KEYS_MAX of them, a turn's scan stays
 * a few tens of milliseconds at the worst (measured: 20 keys over 21 texts of 3 KB, 22-70 ms cold).
 */
export const CARD_SCAN_DEPTH_MAX = 20;
/** Regular-expression keys (primary and secondary) one story's cards may hold between them. */
export const STORY_REGEX_KEYS_MAX = 20;
/**
 * Instructions a regular-expression key's compiled RE2 program may hold. Any pattern written out
 * within a key's 100 characters fits (a word with plural and possessive forms takes about 20); a
 * counted repeat such as .{1000} copies what it repeats, and each instruction is work on every
 * character of every text scanned.
 */
export const REGEX_KEY_PROGRAM_MAX = 300;
/** sticky, cooldown and delay, in turns. */
export const CARD_TURNS_MAX = 1000;
export const CARD_PRIORITY_LIMIT = 1000;

export const CARD_SECONDARY_LOGIC = ['andAny', 'andAll', 'notAny', 'notAll'] as const;
const SECONDARY_LOGIC_INVALID = 'The secondary keys’ logic is one of andAny, andAll, notAny and notAll.';
export const cardSecondaryLogicSchema = z.enum(CARD_SECONDARY_LOGIC, { error: SECONDARY_LOGIC_INVALID });
export type CardSecondaryLogic = z.infer<typeof cardSecondaryLogicSchema>;

export const STORY_CARD_MESSAGES = {
  nameRequired: 'A card needs a name.',
  nameTooLong: `A card's name must be at most ${CARD_NAME_MAX_LENGTH} characters.`,
  contentRequired: 'A card needs some content: the facts the narrator should know.',
  contentTooLong: `A card's content must be at most ${CARD_CONTENT_MAX_LENGTH} characters.`,
  tooManyKeys: `A card may have at most ${CARD_KEYS_MAX} keys (and ${CARD_KEYS_MAX} secondary keys).`,
  keyEmpty: 'A key cannot be empty.',
  keyTooLong: `A key must be at most ${CARD_KEY_MAX_LENGTH} characters.`,
  neverSent: 'A card needs at least one key, or to be always on: otherwise it would never reach the narrator.',
  cardNotFound: 'Card not found.',
  cardIdInvalid: 'A card id is a whole number.',
  versionInvalid: 'A version is a whole number from 1.',
  tooManyCards: (max: number) => `A story may have at most ${max} cards. Delete some to add more.`,
  importEmpty: 'This file has no cards to import.',
  regexKeyTooLarge: (key: string, size: number) =>
    `The key '${key}' is too large a regular expression to check on every turn: it compiles to ${size} steps, and at most ${REGEX_KEY_PROGRAM_MAX} are allowed. Repeat less (a count such as {100} repeats the part before it that many times).`,
  tooManyRegexKeys: `A story's cards may hold at most ${STORY_REGEX_KEYS_MAX} regular-expression keys between them (each is checked against the recent messages on every turn). Write plain words as plain keys.`,
  importType: 'Send the lorebook file as it is: a JSON file (application/json) or a PNG character card (image/png).',
  importTooLarge: `A lorebook file may be at most ${CARD_IMPORT_MAX_BYTES / 1024 / 1024} MB.`,
  tooManyImports: 'Too many card imports this hour. Please try again later.',
  contextMissing:
    'This reply was written before Taleweaver kept a record of what the narrator was sent, so there is nothing to show.',
  keysNotList: 'Keys are a list of words, or of /patterns/.',
  keyNotText: 'Each key is text: a word, a phrase or a /pattern/.',
  secondaryLogicInvalid: SECONDARY_LOGIC_INVALID,
  priorityInvalid: `A card's priority is a whole number from -${CARD_PRIORITY_LIMIT} to ${CARD_PRIORITY_LIMIT}.`,
  scanDepthInvalid: `A card scans a whole number of recent messages, from 0 to ${CARD_SCAN_DEPTH_MAX}.`,
  turnsInvalid: `Sticky, cooldown and delay are whole numbers of turns, from 0 to ${CARD_TURNS_MAX}.`,
  switchInvalid: (field: string) => `A card's ${field} is true or false.`,
} as const;

const key = z
  .string({ error: STORY_CARD_MESSAGES.keyNotText })
  .trim()
  .min(1, STORY_CARD_MESSAGES.keyEmpty)
  .max(CARD_KEY_MAX_LENGTH, STORY_CARD_MESSAGES.keyTooLong);
const keys = z
  .array(key, { error: STORY_CARD_MESSAGES.keysNotList })
  .max(CARD_KEYS_MAX, STORY_CARD_MESSAGES.tooManyKeys);
/** A whole number within bounds; anything else (text, a fraction, out of range) is refused with `message`. */
const wholeNumber = (min: number, max: number, message: string) =>
  z.number({ error: message }).int({ error: message }).min(min, message).max(max, message);
const turns = wholeNumber(0, CARD_TURNS_MAX, STORY_CARD_MESSAGES.turnsInvalid);
/** A yes-or-no setting, named in its refusal as the card form names it. */
const switchOf = (field: string) => z.boolean({ error: STORY_CARD_MESSAGES.switchInvalid(field) });

/** Each field of a card, with no defaults (a PATCH names only what changes). */
const cardFields = {
  name: z
    .string({ error: STORY_CARD_MESSAGES.nameRequired })
    .trim()
    .min(1, STORY_CARD_MESSAGES.nameRequired)
    .max(CARD_NAME_MAX_LENGTH, STORY_CARD_MESSAGES.nameTooLong),
  /** A key written `/pattern/flags` is a regular expression (flags i, m, s), run with linear-time semantics. */
  keys,
  /** With `secondaryLogic`: andAny (one of them too), andAll (all of them too), notAny (none of them), notAll (not all of them). Empty: no condition. */
  secondaryKeys: keys,
  secondaryLogic: cardSecondaryLogicSchema,
  content: z
    .string({ error: STORY_CARD_MESSAGES.contentRequired })
    .trim()
    .min(1, STORY_CARD_MESSAGES.contentRequired)
    .max(CARD_CONTENT_MAX_LENGTH, STORY_CARD_MESSAGES.contentTooLong),
  /** Sent with every turn, in the prompt's stable head. */
  alwaysOn: switchOf('"always on"'),
  enabled: switchOf('"enabled"'),
  /** Higher first when the cards' share of the window is short. */
  priority: wholeNumber(-CARD_PRIORITY_LIMIT, CARD_PRIORITY_LIMIT, STORY_CARD_MESSAGES.priorityInvalid),
  caseSensitive: switchOf('"case sensitive"'),
  /** Keys match whole words only (off by itself for scripts written without spaces). */
  wholeWords: switchOf('"whole words"'),
  /** How many recent messages are scanned for its keys, besides the new action. */
  scanDepth: wholeNumber(0, CARD_SCAN_DEPTH_MAX, STORY_CARD_MESSAGES.scanDepthInvalid),
  /** When it is sent, its content may trigger other cards (one level). */
  recursive: switchOf('"recursive"'),
  /** Turns it stays on after its key came up. */
  sticky: turns,
  /** Turns it cannot come up again after it was last on. */
  cooldown: turns,
  /** The story's turns before it can come up at all. */
  delay: turns,
};

/** A card's fields, as a player writes them, with the defaults for those left out. */
export const storyCardFieldsSchema = z.object({
  ...cardFields,
  keys: keys.default([]),
  secondaryKeys: keys.default([]),
  secondaryLogic: cardSecondaryLogicSchema.default('andAny'),
  alwaysOn: cardFields.alwaysOn.default(false),
  enabled: cardFields.enabled.default(true),
  priority: cardFields.priority.default(0),
  caseSensitive: cardFields.caseSensitive.default(false),
  wholeWords: cardFields.wholeWords.default(true),
  scanDepth: cardFields.scanDepth.default(CARD_SCAN_DEPTH_DEFAULT),
  recursive: cardFields.recursive.default(false),
  sticky: turns.default(0),
  cooldown: turns.default(0),
  delay: turns.default(0),
});
export type StoryCardFields = z.infer<typeof storyCardFieldsSchema>;
export type StoryCardInput = z.input<typeof storyCardFieldsSchema>;

/** A card is sent only when always on or keyed. */
export const neverSent = (card: { alwaysOn: boolean; keys: string[] }) => !card.alwaysOn && card.keys.length === 0;

export const storyCardBodySchema = storyCardFieldsSchema.refine((card) => !neverSent(card), {
  message: STORY_CARD_MESSAGES.neverSent,
  path: ['keys'],
});
/** PATCH: any of the fields, nothing else; the merged card is checked again (neverSent, regular expressions). */
export const storyCardPatchSchema = z.object(cardFields).partial().strict();
export type StoryCardPatch = z.infer<typeof storyCardPatchSchema>;

export const storyCardSchema = storyCardFieldsSchema.extend({
  id: z.number().int().positive(),
  /** The content's tokens as the narrator's tokenizer counts them. */
  tokens: z.number().int().nonnegative(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type StoryCard = z.infer<typeof storyCardSchema>;

export const storyCardsResponseSchema = z.object({ cards: z.array(storyCardSchema) });
export const storyCardResponseSchema = z.object({ card: storyCardSchema });

/** An entry of an imported file that was not used, and why (its name or its position in the file). */
export const ignoredEntrySchema = z.object({ entry: z.string(), reason: z.string() });
export type IgnoredEntry = z.infer<typeof ignoredEntrySchema>;
/** The ignored entries an import's answer lists at most; `ignoredCount` counts them all. */
export const IMPORT_IGNORED_LISTED_MAX = 100;
export const storyCardsImportResponseSchema = z.object({
  imported: z.number().int().nonnegative(),
  cards: z.array(storyCardSchema),
  /** The first IMPORT_IGNORED_LISTED_MAX of the entries not used, in the file's order. */
  ignored: z.array(ignoredEntrySchema).max(IMPORT_IGNORED_LISTED_MAX),
  /** Every entry not used, listed or not. */
  ignoredCount: z.number().int().nonnegative(),
});
export type StoryCardsImportResponse = z.infer<typeof storyCardsImportResponseSchema>;

export const CARD_EXPORT_FORMATS = ['taleweaver', 'sillytavern'] as const;
export const cardsExportQuerySchema = z.object({ format: z.enum(CARD_EXPORT_FORMATS).default('taleweaver') });
export type CardExportFormat = (typeof CARD_EXPORT_FORMATS)[number];

/** Taleweaver's own cards file: the cards' fields, nothing of the story. */
export const CARDS_FILE_FORMAT = 'taleweaver.cards';
export const CARDS_FILE_VERSION = 1;
export const cardsFileSchema = z.object({
  format: z.literal(CARDS_FILE_FORMAT),
  version: z.literal(CARDS_FILE_VERSION),
  cards: z.array(z.unknown()),
});

// The context record: what the narrator was sent for one reply, block by block, and why.

export const CONTEXT_BLOCK_KINDS = [
  'system',
  'premise',
  'notes',
  'memory',
  'card',
  'turn',
  'action',
  // A passage recalled from the memory bank; the rest reserved for the story bible, the author's note and the loop guard.
  'passage',
  'fact',
  'authorsNote',
  'loopGuard',
] as const;
export const contextBlockKindSchema = z.enum(CONTEXT_BLOCK_KINDS);
export type ContextBlockKind = z.infer<typeof contextBlockKindSchema>;
export const contextInclusionSchema = z.enum(['full', 'partial', 'dropped']);
export type ContextInclusion = z.infer<typeof contextInclusionSchema>;

export const contextBlockSchema = z.object({
  kind: contextBlockKindSchema,
  title: z.string(),
  /** Tokens sent (for a dropped block, what it would have cost). */
  tokens: z.number().int().nonnegative(),
  included: contextInclusionSchema,
  reason: z.string(),
  /** The card or message the block is, where it is one. */
  cardId: z.number().int().positive().optional(),
  messageId: z.number().int().positive().optional(),
});
export type ContextBlock = z.infer<typeof contextBlockSchema>;

export const LATER_WORK_KINDS = ['summary', 'image', 'style'] as const;
export const laterWorkSchema = z.object({
  kind: z.enum(LATER_WORK_KINDS),
  inputTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
  cachedInputTokens: z.number().int().nonnegative(),
  imageTokens: z.number().int().nonnegative(),
  costUsd: z.number().nonnegative(),
  createdAt: z.string(),
});
export type LaterWork = z.infer<typeof laterWorkSchema>;

export const narratorContextSchema = z.object({
  /**
   * The narrator that wrote the reply, as the catalogue named it then (absent from records written
   * before stories could name their narrator).
   */
  narrator: z.object({ id: z.string(), label: z.string() }).optional(),
  /** In the order sent; dropped blocks where they would have been. */
  blocks: z.array(contextBlockSchema),
  promptTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
  /** What the prompt may use: the window less the reply's maximum and the safety margin. */
  windowTokens: z.number().int().nonnegative(),
  /** The cards' share of it (always-on and triggered cards together). */
  cardBudgetTokens: z.number().int().nonnegative(),
  /** The room passages recalled from the memory bank had (absent from records written before the memory bank). */
  recallBudgetTokens: z.number().int().nonnegative().optional(),
  /**
   * Set when the loop guard acted on this reply: what it found in the first answer, whether
   * a second answer came (one call more at most; false when the limits, the prompt's room or a failed
   * call left none), and what was kept: the new answer ('replaced'), or a reply that still repeats
   * ('marked').
   */
  loopGuard: z
    .object({
      outcome: z.enum(['replaced', 'marked']),
      reasons: z.array(z.string()),
      retried: z.boolean(),
    })
    .optional(),
  /** What the reply's own calls cost (absent from records written before it was kept). */
  usage: replyUsageSchema.optional(),
  /**
   * Paid work done after the reply because of it, as the ledger recorded it, oldest first: the memory
   * fold it set off, its scene picture and the picture's style sheet. Read with the record, so it
   * grows as that work finishes.
   */
  laterWork: z.array(laterWorkSchema).optional(),
});
export type NarratorContext = z.infer<typeof narratorContextSchema>;

export const cardParamsSchema = z.object({
  storyId: numericId(STORY_MESSAGES.storyIdInvalid),
  cardId: numericId(STORY_CARD_MESSAGES.cardIdInvalid),
});
export const contextQuerySchema = z.object({
  version: numericId(STORY_CARD_MESSAGES.versionInvalid)
    .refine((n) => n >= 1, STORY_CARD_MESSAGES.versionInvalid)
    .optional(),
});
