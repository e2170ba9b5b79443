// The player's story library: GET /api/stories lists the owner's stories, newest played
// first, paged and searchable by title; PATCH /api/story/{id} renames one; DELETE /api/story/{id}
// removes it with its bookmarks, shares and pictures.
import { z } from 'zod';
import { STORY_TITLE_MAX_LENGTH } from '../constants';

export const LIBRARY_PAGE_SIZE = 12;
export const LIBRARY_MAX_PAGE_SIZE = 50;
export const LIBRARY_QUERY_MAX_LENGTH = 100;

export const LIBRARY_MESSAGES = {
  pageInvalid: 'Page must be a whole number from 1',
  limitInvalid: `Limit must be a whole number from 1 to ${LIBRARY_MAX_PAGE_SIZE}`,
  queryTooLong: `Search at most ${LIBRARY_QUERY_MAX_LENGTH} characters.`,
  queryInvalid: 'Search for one text at a time.',
  titleRequired: 'Please give the story a title.',
  titleTooLong: `A title must be at most ${STORY_TITLE_MAX_LENGTH} characters.`,
} as const;

/** A query-string number within bounds; absent means the default. */
const boundedInt = (message: string, max: number) =>
  z
    .string({ error: message })
    .regex(/^\d{1,6}$/, message)
    .transform(Number)
    .refine((n) => n >= 1 && n <= max, message);

export const libraryQuerySchema = z.object({
  page: boundedInt(LIBRARY_MESSAGES.pageInvalid, 100_000).optional(),
  limit: boundedInt(LIBRARY_MESSAGES.limitInvalid, LIBRARY_MAX_PAGE_SIZE).optional(),
  q: z
    .string({ error: LIBRARY_MESSAGES.queryInvalid })
    .trim()
    .max(LIBRARY_QUERY_MAX_LENGTH, LIBRARY_MESSAGES.queryTooLong)
    .optional(),
});
export type LibraryQuery = z.input<typeof libraryQuerySchema>;

export const libraryStorySchema = z.object({
  id: z.number().int().positive(),
  title: z.string(),
  /** The player's actions so far (the opening is turn 0). */
  turns: z.number().int().nonnegative(),
  createdAt: z.string(),
  /** When the narrator last answered (or the story was started). */
  lastPlayedAt: z.string(),
  /** The story's first ready picture, small; null when it has none. */
  thumbnail: z.string().nullable(),
});
export type LibraryStory = z.infer<typeof libraryStorySchema>;

export const libraryPageSchema = z.object({
  stories: z.array(libraryStorySchema),
  page: z.number().int().positive(),
  limit: z.number().int().positive(),
  /** Stories matching the search over all pages. */
  total: z.number().int().nonnegative(),
});
export type LibraryPage = z.infer<typeof libraryPageSchema>;

export const storyRenameBodySchema = z.object({
  title: z
    .string({ error: LIBRARY_MESSAGES.titleRequired })
    .trim()
    .min(1, LIBRARY_MESSAGES.titleRequired)
    .max(STORY_TITLE_MAX_LENGTH, LIBRARY_MESSAGES.titleTooLong),
});
export type StoryRenameBody = z.infer<typeof storyRenameBodySchema>;

export const storyRenameResponseSchema = z.object({ id: z.number().int().positive(), title: z.string() });
export type StoryRenameResponse = z.infer<typeof storyRenameResponseSchema>;
