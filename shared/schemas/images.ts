// Scene images: the three image calls, the shape a picture takes in
// story reads, and the story's visual style sheet. A picture belongs to one narrator message; its
// `imageMessageId` is that message's id, so the one poll (GET …/message/{id}/image) serves both
// the automatic picture of a new reply and one asked for on demand.
import { z } from 'zod';

export const IMAGE_MESSAGES = {
  /** Verbatim. */
  storyNotInitialized: 'Cannot generate image: Story not properly initialized',
  messageNotFound: 'Could not find message to generate image for',
  noContent: 'No content available for image generation',
  /** The product's server default: what a player sees when the painter failed for a reason of ours. */
  failed: 'Image generation failed',
  contentTooLong: 'The text to illustrate is too long.',
  notReady: 'The picture is not ready yet.',
  noImage: 'No picture has been asked for this message.',
  imageNotFound: 'Image not found',
  disabled: 'Scene images are turned off on this server.',
  tooMany: 'You have asked for too many pictures this hour. Please wait a little before asking for another.',
  timedOut: 'The painter took too long to answer.',
  unavailable: 'The painter is unavailable right now.',
  notAnImage: 'The painter sent back something that is not a picture.',
  tooLarge: 'The painter sent back a picture that is too large.',
  interrupted: 'The picture was interrupted twice before it was finished.',
  styleTooLong: 'Keep each style sheet entry under its length limit.',
  tooManyCharacters: 'A style sheet holds at most 12 characters.',
  characterNameRequired: 'Every character needs a name.',
  styleSheetInvalid: 'A style sheet needs an art style, a player and a list of characters, all written as text.',
} as const;

export const IMAGE_CONTENT_MAX_LENGTH = 20_000;
export const STYLE_SHEET_MAX_CHARACTERS = 12;
export const STYLE_TEXT_MAX_LENGTH = 300;
export const STYLE_FIELD_MAX_LENGTH = 160;
export const STYLE_NAME_MAX_LENGTH = 40;

/** Error codes of the image calls beyond the common ones (also in ERROR_CODES). */
export const IMAGE_ERROR_CODES = {
  pending: 'IMAGE_PENDING',
  failed: 'IMAGE_FAILED',
  disabled: 'IMAGES_DISABLED',
} as const;

export const imageMessageParamsSchema = z.object({
  messageId: z
    .string({ error: IMAGE_MESSAGES.messageNotFound })
    .regex(/^\d{1,15}$/, IMAGE_MESSAGES.messageNotFound)
    .transform(Number),
});
export type ImageMessageParams = z.infer<typeof imageMessageParamsSchema>;

/** POST …/generate-image and …/generate-initial-image: `{content, storyId}`. */
export const generateImageBodySchema = z.object({
  content: z
    .string({ error: IMAGE_MESSAGES.noContent })
    .trim()
    .min(1, IMAGE_MESSAGES.noContent)
    .max(IMAGE_CONTENT_MAX_LENGTH, IMAGE_MESSAGES.contentTooLong),
  /** A number, or its digits as text (as the spec's client may send it); never an array, a boolean or '1e3'. */
  storyId: z
    .union(
      [
        z.number(),
        z
          .string()
          .regex(/^\d{1,15}$/)
          .transform(Number),
      ],
      { error: IMAGE_MESSAGES.storyNotInitialized },
    )
    .pipe(z.number().int(IMAGE_MESSAGES.storyNotInitialized).positive(IMAGE_MESSAGES.storyNotInitialized)),
});
export type GenerateImageBody = z.input<typeof generateImageBodySchema>;

export const sceneImageStatusSchema = z.enum(['pending', 'ready', 'failed']);
export type SceneImageStatus = z.infer<typeof sceneImageStatusSchema>;

/**
 * A scene picture as story reads carry it. `url` and `thumbnail` are content-addressed
 * (`/api/images/{sha256}.webp`, cached forever) and present once `status` is ready; `error` is the
 * reason of a failed one. `alt` is the scene the picture shows, for screen readers.
 */
export const sceneImageSchema = z.object({
  messageId: z.number().int().positive(),
  status: sceneImageStatusSchema,
  url: z.string().optional(),
  thumbnail: z.string().optional(),
  alt: z.string(),
  width: z.number().int().positive().optional(),
  height: z.number().int().positive().optional(),
  error: z.string().optional(),
});
export type SceneImage = z.infer<typeof sceneImageSchema>;

/** The answer of the two generate calls: the job is accepted and runs behind; `image` is set when a picture was already there. */
export const generateImageResponseSchema = z.object({
  imageMessageId: z.number().int().positive(),
  image: z.string().optional(),
});
export type GenerateImageResponse = z.infer<typeof generateImageResponseSchema>;

/** GET …/message/{id}/image when ready (404 while pending, 422 with the reason when it failed). */
export const messageImageResponseSchema = z.object({
  image: z.string(),
  thumbnail: z.string(),
  alt: z.string(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
});
export type MessageImageResponse = z.infer<typeof messageImageResponseSchema>;

/** A style sheet's text: anything but text (a number, a list) gets the sheet's own message, not the validator's. */
const styleText = (max: number) =>
  z.string({ error: IMAGE_MESSAGES.styleSheetInvalid }).trim().max(max, IMAGE_MESSAGES.styleTooLong);

export const styleCharacterSchema = z.object(
  {
    name: z
      .string({ error: IMAGE_MESSAGES.characterNameRequired })
      .trim()
      .min(1, IMAGE_MESSAGES.characterNameRequired)
      .max(STYLE_NAME_MAX_LENGTH, IMAGE_MESSAGES.styleTooLong),
    face: styleText(STYLE_FIELD_MAX_LENGTH).default(''),
    hair: styleText(STYLE_FIELD_MAX_LENGTH).default(''),
    clothes: styleText(STYLE_FIELD_MAX_LENGTH).default(''),
  },
  { error: IMAGE_MESSAGES.styleSheetInvalid },
);
export type StyleCharacter = z.infer<typeof styleCharacterSchema>;

/** The story's visual style sheet: prepended to every scene prompt so faces, hair and clothes stay the same. */
export const styleSheetSchema = z.object({
  artStyle: styleText(STYLE_TEXT_MAX_LENGTH),
  player: styleText(STYLE_TEXT_MAX_LENGTH),
  characters: z
    .array(styleCharacterSchema, { error: IMAGE_MESSAGES.styleSheetInvalid })
    .max(STYLE_SHEET_MAX_CHARACTERS, IMAGE_MESSAGES.tooManyCharacters),
});
export type StyleSheet = z.infer<typeof styleSheetSchema>;
export type StyleSheetInput = z.input<typeof styleSheetSchema>;

export const styleSheetResponseSchema = styleSheetSchema.extend({
  /** The seed every picture of this story uses where the painter takes one. */
  seed: z.number().int().nonnegative(),
  updatedAt: z.string(),
});
export type StyleSheetResponse = z.infer<typeof styleSheetResponseSchema>;
