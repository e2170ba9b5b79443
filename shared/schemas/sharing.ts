// Request and response shapes of sharing: the owner names a story and gets an
// unguessable share id; anyone with the id reads a snapshot of the story's turns as they stood when
// shared. The public shape carries no account data: no user, no story id, no message ids or dates.
import { z } from 'zod';
import { SHARE_ID_PATTERN, SHARE_TITLE_MAX_LENGTH } from '../constants';

export const SHARING_MESSAGES = {
  titleRequired: 'Please enter a title for your story.',
  titleTooLong: `The title must be at most ${SHARE_TITLE_MAX_LENGTH} characters.`,
  /** The text a 404 shows on the shared page. */
  notFound: 'Story not found or has been removed by its creator',
  tooManyReads: 'Too many shared story requests. Please wait a minute and try again.',
  tooManyPictures: 'Too many shared pictures requested. Please wait a minute and try again.',
} as const;

/** A size in bytes as a player reads it: "8 MB", "1.5 MB", "512 KB". */
export function readableBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Number((bytes / (1024 * 1024)).toFixed(1))} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/** The 413 of sharing a story past SHARE_MAX_BYTES; it names the limit, which the operator sets. */
export const shareTooLargeMessage = (maxBytes: number) =>
  `This story is too long to share: a shared story can be at most ${readableBytes(maxBytes)}. Branch it from an earlier turn and share the branch instead.`;

export const DEFAULT_SHARED_TITLE = 'Untitled Story';
/** The id of the built-in sample story (GET /api/shared/test). */
export const SAMPLE_SHARE_ID = 'test';

export const shareBodySchema = z.object({
  title: z
    .string({ error: SHARING_MESSAGES.titleRequired })
    .trim()
    .min(1, SHARING_MESSAGES.titleRequired)
    .max(SHARE_TITLE_MAX_LENGTH, SHARING_MESSAGES.titleTooLong),
});
export type ShareBody = z.input<typeof shareBodySchema>;

export const shareResponseSchema = z.object({ shareId: z.string() });
export type ShareResponse = z.infer<typeof shareResponseSchema>;

/** Any string is accepted here: a malformed id is simply not found (404), never a validation error. */
export const shareParamsSchema = z.object({ shareId: z.string() });

export const isWellFormedShareId = (shareId: string) => SHARE_ID_PATTERN.test(shareId);

export const sharedMessageSchema = z.object({
  role: z.enum(['user', 'assistant']),
  content: z.string(),
  /** A scene image (URL or data URL) shown under the narrator's text. */
  image: z.string().optional(),
  /** A small version of it (gallery, lazy loading) and what it shows (alt text). */
  thumbnail: z.string().optional(),
  imageAlt: z.string().optional(),
});
export type SharedMessage = z.infer<typeof sharedMessageSchema>;

export const sharedStorySchema = z.object({
  shareId: z.string(),
  title: z.string(),
  messages: z.array(sharedMessageSchema),
});
export type SharedStory = z.infer<typeof sharedStorySchema>;
