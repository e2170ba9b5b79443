// The story bible: the lasting facts of a story as entity, attribute and value ("your
// horse", "name", "Thistle"), taken from the turns as they are folded into memory. A new value for
// the same entity and attribute supersedes the old one, which stays as its history. Pinned facts
// go to the narrator with every turn; the others when a turn's words call them up.
// GET /api/story/{id}/bible, PATCH and DELETE /api/story/{id}/bible/{factId},
// POST /api/story/{id}/bible/suggest-cards (proposed story cards, saved only when the player adds one).
import { z } from 'zod';
import { numericId, STORY_MESSAGES } from './story';
import { storyCardFieldsSchema } from './story-cards';

export const BIBLE_ENTITY_MAX_LENGTH = 80;
export const BIBLE_ATTRIBUTE_MAX_LENGTH = 60;
export const BIBLE_VALUE_MAX_LENGTH = 300;
/** Facts a story may have pinned at once: each is sent with every turn, inside the memory budget. */
export const BIBLE_PINNED_MAX = 12;
/** A story's facts at most, current and history together (the oldest unpinned ones go first); a story file's too. */
export const STORY_BIBLE_MAX_FACTS = 400;
/** Cards 'Suggest cards' proposes at most at once. */
export const BIBLE_SUGGESTIONS_MAX = 12;

export const STORY_BIBLE_MESSAGES = {
  entityRequired: 'A fact needs the person, place or thing it is about.',
  entityTooLong: `What a fact is about must be at most ${BIBLE_ENTITY_MAX_LENGTH} characters.`,
  attributeRequired: 'A fact needs what it says about it (for example "name").',
  attributeTooLong: `A fact's attribute must be at most ${BIBLE_ATTRIBUTE_MAX_LENGTH} characters.`,
  valueRequired: 'A fact needs a value.',
  valueTooLong: `A fact's value must be at most ${BIBLE_VALUE_MAX_LENGTH} characters.`,
  nothingToChange: 'Send at least one of entity, attribute, value and pinned.',
  factNotFound: 'Fact not found.',
  factIdInvalid: 'A fact id is a whole number.',
  tooManyPinned: `At most ${BIBLE_PINNED_MAX} facts can be pinned. Unpin one first.`,
  pinnedInvalid: 'Pinned is true or false.',
} as const;

const factFields = {
  entity: z
    .string({ error: STORY_BIBLE_MESSAGES.entityRequired })
    .trim()
    .min(1, STORY_BIBLE_MESSAGES.entityRequired)
    .max(BIBLE_ENTITY_MAX_LENGTH, STORY_BIBLE_MESSAGES.entityTooLong),
  attribute: z
    .string({ error: STORY_BIBLE_MESSAGES.attributeRequired })
    .trim()
    .min(1, STORY_BIBLE_MESSAGES.attributeRequired)
    .max(BIBLE_ATTRIBUTE_MAX_LENGTH, STORY_BIBLE_MESSAGES.attributeTooLong),
  value: z
    .string({ error: STORY_BIBLE_MESSAGES.valueRequired })
    .trim()
    .min(1, STORY_BIBLE_MESSAGES.valueRequired)
    .max(BIBLE_VALUE_MAX_LENGTH, STORY_BIBLE_MESSAGES.valueTooLong),
};

export const bibleFactSchema = z.object({
  id: z.number().int().positive(),
  ...factFields,
  /** The story turn it came from (0: the opening). */
  turn: z.number().int().nonnegative(),
  /** Sent with every turn. */
  pinned: z.boolean(),
  /** The older fact of the same entity and attribute this one replaced (its history), if any. */
  supersedes: z.number().int().positive().nullable(),
});
export type BibleFact = z.infer<typeof bibleFactSchema>;

/** Every fact the story shows now, current and superseded, oldest turn first. */
export const storyBibleResponseSchema = z.object({ facts: z.array(bibleFactSchema) });
export type StoryBible = z.infer<typeof storyBibleResponseSchema>;
export const bibleFactResponseSchema = z.object({ fact: bibleFactSchema });

/** PATCH: any of these, at least one; an edited fact keeps its turn and its place in the history. */
export const bibleFactPatchSchema = z
  .object({ ...factFields, pinned: z.boolean({ error: STORY_BIBLE_MESSAGES.pinnedInvalid }) })
  .partial()
  .strict()
  .refine((patch) => Object.keys(patch).length > 0, { message: STORY_BIBLE_MESSAGES.nothingToChange });
export type BibleFactPatch = z.infer<typeof bibleFactPatchSchema>;

export const bibleFactParamsSchema = z.object({
  storyId: numericId(STORY_MESSAGES.storyIdInvalid),
  factId: numericId(STORY_BIBLE_MESSAGES.factIdInvalid),
});

/** Proposed story cards, one per recurring entity of the bible that no card names yet: nothing is saved until the player adds one (POST /cards). */
export const suggestedCardsResponseSchema = z.object({ cards: z.array(storyCardFieldsSchema) });
export type SuggestedCards = z.infer<typeof suggestedCardsResponseSchema>;

/** The bible as a story file carries it: each fact by the index of the message it came from in the file's messages. */
export const bibleFileFactSchema = z.object({
  ...factFields,
  message: z.number().int().nonnegative(),
  turn: z.number().int().nonnegative(),
  pinned: z.boolean().default(false),
});
export type BibleFileFact = z.infer<typeof bibleFileFactSchema>;
