// Request and response shapes of the bookmark endpoints: a bookmark marks a
// story at one of its messages, with a title and an optional description. Dates travel as ISO strings.
import { z } from 'zod';
import { BOOKMARK_DESCRIPTION_MAX_LENGTH, BOOKMARK_TITLE_MAX_LENGTH } from '../constants';

export const BOOKMARK_MESSAGES = {
  titleRequired: 'Please enter a title for your bookmark.',
  titleTooLong: `The title must be at most ${BOOKMARK_TITLE_MAX_LENGTH} characters.`,
  descriptionTooLong: `The description must be at most ${BOOKMARK_DESCRIPTION_MAX_LENGTH} characters.`,
  storyIdInvalid: 'Story id must be a number',
  messageIdInvalid: 'Message id must be a number',
  bookmarkIdInvalid: 'Bookmark id must be a number',
  bookmarkNotFound: 'Bookmark not found',
  nothingToUpdate: 'Send a new title or description to update the bookmark.',
} as const;

const title = z
  .string({ error: BOOKMARK_MESSAGES.titleRequired })
  .trim()
  .min(1, BOOKMARK_MESSAGES.titleRequired)
  .max(BOOKMARK_TITLE_MAX_LENGTH, BOOKMARK_MESSAGES.titleTooLong);

/** Trimmed; an empty description is stored as null. */
const description = z
  .string()
  .trim()
  .max(BOOKMARK_DESCRIPTION_MAX_LENGTH, BOOKMARK_MESSAGES.descriptionTooLong)
  .nullable()
  .transform((value) => (value ? value : null));

const positiveId = (message: string) =>
  z.number({ error: message }).int(message).positive(message).max(2_147_483_647, message);

export const bookmarkSchema = z.object({
  id: z.number().int().positive(),
  storyId: z.number().int().positive(),
  lastMessageId: z.number().int().positive(),
  title: z.string(),
  description: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Bookmark = z.infer<typeof bookmarkSchema>;

export const bookmarkListSchema = z.array(bookmarkSchema);
export type BookmarkList = z.infer<typeof bookmarkListSchema>;

export const bookmarkCreateBodySchema = z.object({
  storyId: positiveId(BOOKMARK_MESSAGES.storyIdInvalid),
  lastMessageId: positiveId(BOOKMARK_MESSAGES.messageIdInvalid),
  title,
  description: description.optional().transform((value) => value ?? null),
});
export type BookmarkCreateBody = z.input<typeof bookmarkCreateBodySchema>;

export const bookmarkUpdateBodySchema = z
  .object({ title: title.optional(), description: description.optional() })
  // The issue sits on a field: a root-level issue reads as "body is not an object" in the error handler.
  .refine((body) => body.title !== undefined || body.description !== undefined, {
    message: BOOKMARK_MESSAGES.nothingToUpdate,
    path: ['title'],
  });
export type BookmarkUpdateBody = z.input<typeof bookmarkUpdateBodySchema>;

export const bookmarkParamsSchema = z.object({
  id: z
    .string({ error: BOOKMARK_MESSAGES.bookmarkIdInvalid })
    .regex(/^\d{1,15}$/, BOOKMARK_MESSAGES.bookmarkIdInvalid)
    .transform(Number),
});
