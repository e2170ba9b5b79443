// Scenarios: what a story starts from, without its turns, which its author may publish for others
// to play. This slice holds the scenario itself (its fields, its setup questions, its choices) and
// its life as its author sees it: POST /api/scenarios (a draft), GET /api/scenarios/mine,
// GET/PATCH/DELETE /api/scenarios/{id}, POST /api/scenarios/{id}/publish and /unpublish, and
// Discover's list, GET /api/scenarios, remixes, POST /api/scenarios/{id}/remix, and likes,
// PUT/DELETE /api/scenarios/{id}/like.
import { z } from 'zod';
import { CONTENT_RATINGS, GENRES, STORY_PREMISE_MAX_LENGTH, STORY_TITLE_MAX_LENGTH } from '../constants';
import { narratorIdSchema } from './narrators';
import { neverSent, STORY_CARD_MESSAGES, storyCardFieldsSchema } from './story-cards';
import { REPLY_LENGTHS, TEMPERATURE_MAX, TEMPERATURE_MIN } from './story-settings';

export const SCENARIO_DESCRIPTION_MAX_LENGTH = 2000;
export const SCENARIO_INSTRUCTIONS_MAX_LENGTH = 2000;
export const SCENARIO_AUTHORS_NOTE_MAX_LENGTH = 2000;
export const SCENARIO_TAGS_MAX = 10;
export const SCENARIO_TAG_MAX_LENGTH = 30;
/** Choices a scenario (or a choice) offers at most, and how deep they nest. */
export const SCENARIO_OPTIONS_MAX = 10;
export const SCENARIO_OPTIONS_DEPTH = 3;
/** A scenario's cards at most (its choices' together): a request body holds 64 KB anyway. */
export const SCENARIO_CARDS_MAX = 200;
/** Scenario ids: 16 random bytes as base64url, as share ids are, so an unlisted one cannot be found by counting. */
export const SCENARIO_ID_PATTERN = /^[A-Za-z0-9_-]{22}$/;
export const SCENARIO_VISIBILITIES = ['draft', 'unlisted', 'public'] as const;
export type ScenarioVisibility = (typeof SCENARIO_VISIBILITIES)[number];

export const SCENARIO_MESSAGES = {
  notFound: 'Scenario not found',
  tooMany: (max: number) => `You can keep at most ${max} scenarios. Delete one to make another.`,
  tooManyPublished: 'You have published too many scenarios this hour. Please try again later.',
  nothingToUpdate: 'Send a field of the scenario to change.',
  tooManyCards: `A scenario holds at most ${SCENARIO_CARDS_MAX} story cards, its choices' included.`,
  tooDeep: `Choices nest at most ${SCENARIO_OPTIONS_DEPTH} levels deep.`,
  badCursor: 'That page of scenarios is not known: start again from the first.',
} as const;

const tag = z.string().trim().min(1).max(SCENARIO_TAG_MAX_LENGTH);
const card = storyCardFieldsSchema.refine((c) => !neverSent(c), {
  message: STORY_CARD_MESSAGES.neverSent,
  path: ['keys'],
});
const cards = z.array(card).max(SCENARIO_CARDS_MAX);

/** A choice the player picks before the story starts: its title, what it adds to the premise, its cards, its own choices. */
export interface ScenarioOption {
  id: string;
  title: string;
  premise: string;
  cards: z.output<typeof card>[];
  options: ScenarioOption[];
}

/** A choice as an author sends it: its id may be left out (the server gives one). */
export type ScenarioOptionInput = Omit<ScenarioOption, 'id' | 'options'> & {
  id?: string;
  options: ScenarioOptionInput[];
};

/**
 * The choices, written out level by level (three, then none below) rather than as a recursive
 * schema: the OpenAPI document can name every level, and a deeper one is refused by its shape.
 */
function optionsOf(inner: z.ZodType<ScenarioOptionInput[]> | null) {
  return z
    .array(
      z.object({
        // Given by the server where the author gave none; kept across edits so a pending play still finds it.
        id: z
          .string()
          .regex(/^[a-z0-9]{1,12}$/)
          .optional(),
        title: z.string().trim().min(1).max(STORY_TITLE_MAX_LENGTH),
        premise: z.string().max(STORY_PREMISE_MAX_LENGTH).default(''),
        cards: cards.default([]),
        options: inner ? inner.default([]) : z.array(z.unknown()).max(0, SCENARIO_MESSAGES.tooDeep).default([]),
      }),
    )
    .max(SCENARIO_OPTIONS_MAX) as unknown as z.ZodType<ScenarioOptionInput[]>;
}
const optionsSchema = optionsOf(optionsOf(optionsOf(null)));

const fields = {
  title: z.string().trim().min(1).max(STORY_TITLE_MAX_LENGTH),
  description: z.string().trim().max(SCENARIO_DESCRIPTION_MAX_LENGTH),
  premise: z.string().trim().min(1).max(STORY_PREMISE_MAX_LENGTH),
  /** The author's rules for the narrator, sent after the narrator's own. */
  instructions: z.string().trim().max(SCENARIO_INSTRUCTIONS_MAX_LENGTH),
  /** Becomes the story's author's note (the memory panel's Notes). */
  authorsNote: z.string().trim().max(SCENARIO_AUTHORS_NOTE_MAX_LENGTH),
  tags: z.array(tag).max(SCENARIO_TAGS_MAX),
  /** One of the ten genres, or null: derived from the premise where it is used. */
  genre: z.enum(GENRES).nullable(),
  contentRating: z.enum(CONTENT_RATINGS),
  cards,
  options: optionsSchema,
  replyLength: z.enum(REPLY_LENGTHS).nullable(),
  temperature: z.number().min(TEMPERATURE_MIN).max(TEMPERATURE_MAX).nullable(),
  /** A narrator of the catalogue to recommend; used when the player may pick it. */
  narrator: narratorIdSchema.nullable(),
};

/** Tags as the author wrote them, each once (compared without case), in their order. */
const distinctTags = <T extends { tags?: string[] }>(body: T): T =>
  body.tags === undefined
    ? body
    : {
        ...body,
        tags: body.tags.filter((t, i, all) => all.findIndex((o) => o.toLowerCase() === t.toLowerCase()) === i),
      };

export const scenarioCreateBodySchema = z
  .object({
    ...fields,
    description: fields.description.default(''),
    instructions: fields.instructions.default(''),
    authorsNote: fields.authorsNote.default(''),
    tags: fields.tags.default([]),
    genre: fields.genre.default(null),
    contentRating: fields.contentRating.default('general'),
    cards: fields.cards.default([]),
    options: fields.options.default([]),
    replyLength: fields.replyLength.default(null),
    temperature: fields.temperature.default(null),
    narrator: fields.narrator.default(null),
  })
  .transform(distinctTags);
export type ScenarioCreateBody = z.infer<typeof scenarioCreateBodySchema>;

export const scenarioUpdateBodySchema = z
  .object(fields)
  .partial()
  .refine((body) => Object.values(body).some((value) => value !== undefined), {
    message: SCENARIO_MESSAGES.nothingToUpdate,
    path: ['title'],
  })
  .transform(distinctTags);
export type ScenarioUpdateBody = z.infer<typeof scenarioUpdateBodySchema>;

export const scenarioPublishBodySchema = z.object({ visibility: z.enum(['public', 'unlisted']) });

/** Any short text: one that is no scenario id is a scenario that is not there (404), as an unknown one is. */
export const scenarioParamsSchema = z.object({ id: z.string().max(64) });

/** The choices as the API answers them, level by level as they are written. */
function optionAnswersOf(inner: z.ZodType<ScenarioOption[]> | null): z.ZodType<ScenarioOption[]> {
  return z.array(
    z.object({
      id: z.string(),
      title: z.string(),
      premise: z.string(),
      cards: z.array(storyCardFieldsSchema),
      options: inner ?? z.array(z.never()),
    }),
  ) as unknown as z.ZodType<ScenarioOption[]>;
}

/** A scenario as the API answers it. */
export const scenarioSchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  premise: z.string(),
  instructions: z.string(),
  authorsNote: z.string(),
  tags: z.array(z.string()),
  genre: z.enum(GENRES).nullable(),
  contentRating: z.enum(CONTENT_RATINGS),
  cards: z.array(storyCardFieldsSchema),
  options: optionAnswersOf(optionAnswersOf(optionAnswersOf(null))),
  visibility: z.enum(SCENARIO_VISIBILITIES),
  /** Raised each time what others see changes (a publish, an edit while published); 0 while never published. */
  version: z.number().int().nonnegative(),
  author: z.object({ username: z.string() }),
  /**
   * The scenario this one remixes, as it was when remixed; once that one is deleted its id is null
   * and `deleted` true ("a deleted scenario").
   */
  remixOf: z
    .object({ id: z.string().nullable(), title: z.string(), author: z.string(), deleted: z.literal(true).optional() })
    .nullable(),
  /** Players who like it, and whether the caller does. */
  likes: z.number().int().nonnegative(),
  liked: z.boolean(),
  /** The setup questions its texts ask (`${Your name}`, `${Your name[Aria]}`, NovelAI's form), each once. */
  questions: z.array(z.object({ name: z.string(), default: z.string().nullable() })),
  replyLength: z.enum(REPLY_LENGTHS).nullable(),
  temperature: z.number().nullable(),
  narrator: z.string().nullable(),
  /** Whether the caller wrote it. */
  mine: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Scenario = z.infer<typeof scenarioSchema>;

export const scenarioAnswerSchema = z.object({ scenario: scenarioSchema });

/** A scenario in a list: enough for a card, not its texts. */
export const scenarioSummarySchema = scenarioSchema.pick({
  id: true,
  title: true,
  description: true,
  tags: true,
  genre: true,
  contentRating: true,
  visibility: true,
  version: true,
  author: true,
  remixOf: true,
  likes: true,
  updatedAt: true,
});
export type ScenarioSummary = z.infer<typeof scenarioSummarySchema>;

export const myScenariosSchema = z.object({ scenarios: z.array(scenarioSummarySchema) });

/** Discover's page size. */
export const DISCOVER_PAGE_SIZE = 24;
export const DISCOVER_QUERY_MAX_LENGTH = 200;
/** Newest published first, or most liked first. */
export const DISCOVER_SORTS = ['new', 'likes'] as const;

/** GET /api/scenarios: public scenarios, found by words, genre, tag and rating, newest first, a page after `cursor`. */
export const discoverQuerySchema = z.object({
  q: z.string().trim().max(DISCOVER_QUERY_MAX_LENGTH).optional(),
  genre: z.enum(GENRES).optional(),
  tag: tag.optional(),
  rating: z.enum(CONTENT_RATINGS).optional(),
  sort: z.enum(DISCOVER_SORTS).default('new'),
  /** The `nextCursor` of the page before. */
  cursor: z.string().max(200).optional(),
});
export type DiscoverQuery = z.infer<typeof discoverQuerySchema>;

export const discoverAnswerSchema = z.object({
  scenarios: z.array(scenarioSummarySchema),
  /** Null on the last page. */
  nextCursor: z.string().nullable(),
});
export type DiscoverAnswer = z.infer<typeof discoverAnswerSchema>;

/** PUT and DELETE /api/scenarios/{id}/like: the count after, and whether the caller likes it. */
export const scenarioLikeAnswerSchema = z.object({ likes: z.number().int().nonnegative(), liked: z.boolean() });
export type ScenarioLikeAnswer = z.infer<typeof scenarioLikeAnswerSchema>;
