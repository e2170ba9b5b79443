// Story preferences: content rating, narrative style and language style, which the narrator states
// in its system prompt, and the narrator new stories start with. GET answers the full set (defaults
// when unset or logged out); POST takes the one field that changed and answers the full set again.
import { z } from 'zod';
import { CONTENT_RATINGS, LANGUAGE_STYLES, NARRATIVE_STYLES } from '../constants';
import { narratorIdSchema } from './narrators';

export const PREFERENCES_MESSAGES = {
  /** The spec's client branches on these exact words. */
  notAuthenticated: 'Not authenticated',
  contentRatingInvalid: `Content rating must be one of: ${CONTENT_RATINGS.join(', ')}`,
  narrativeStyleInvalid: `Narrative style must be one of: ${NARRATIVE_STYLES.join(', ')}`,
  languageStyleInvalid: `Language style must be one of: ${LANGUAGE_STYLES.join(', ')}`,
  imageGenerationInvalid: 'Image generation must be true or false',
  nothingToUpdate:
    'Send a preference to change: contentRating, narrativeStyle, languageStyle, imageGeneration or narrator.',
} as const;

export const preferencesSchema = z.object({
  contentRating: z.enum(CONTENT_RATINGS, { error: PREFERENCES_MESSAGES.contentRatingInvalid }),
  narrativeStyle: z.enum(NARRATIVE_STYLES, { error: PREFERENCES_MESSAGES.narrativeStyleInvalid }),
  languageStyle: z.enum(LANGUAGE_STYLES, { error: PREFERENCES_MESSAGES.languageStyleInvalid }),
  /** The spec's global image-generation flag (default off), kept with the preferences so it follows the player. */
  imageGeneration: z.boolean({ error: PREFERENCES_MESSAGES.imageGenerationInvalid }),
});
export type Preferences = z.infer<typeof preferencesSchema>;
export type PreferenceKey = keyof Preferences;

export const DEFAULT_PREFERENCES: Preferences = {
  contentRating: 'general',
  narrativeStyle: 'descriptive',
  languageStyle: 'modern',
  imageGeneration: false,
};

export const preferencesResponseSchema = preferencesSchema.extend({
  /**
   * The id of the narrator the player's new stories start with (GET /api/narrators lists them): the
   * one they chose while it is still theirs to pick, else the catalogue's default.
   */
  narrator: z.string(),
});
export type PreferencesResponse = z.infer<typeof preferencesResponseSchema>;

/** One changed field (several are accepted too); unknown fields are ignored, so a body of only those changes nothing and is refused. */
export const preferencesUpdateBodySchema = preferencesSchema
  .extend({ narrator: narratorIdSchema })
  .partial()
  // The issue sits on a field: a root-level issue reads as "body is not an object" in the error handler.
  .refine((body) => Object.values(body).some((value) => value !== undefined), {
    message: PREFERENCES_MESSAGES.nothingToUpdate,
    path: ['contentRating'],
  });
export type PreferencesUpdateBody = z.infer<typeof preferencesUpdateBodySchema>;
export type ContentRating = Preferences['contentRating'];
