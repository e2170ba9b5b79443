// A story's own generation settings: which narrator writes it, how long its replies are and how
// creative (its sampling temperature). GET and PATCH /api/story/{id}/settings; they count from the
// next turn, are copied by branches and carried by story files.
import { z } from 'zod';
import { narratorIdSchema } from './narrators';

export const REPLY_LENGTHS = ['short', 'medium', 'long'] as const;
export type ReplyLength = (typeof REPLY_LENGTHS)[number];
/** Today's length: the narrator's rules ask for 80-180 words within LLM_MAX_OUTPUT_TOKENS. */
export const DEFAULT_REPLY_LENGTH: ReplyLength = 'medium';
export const TEMPERATURE_MIN = 0;
export const TEMPERATURE_MAX = 2;

export const STORY_SETTINGS_MESSAGES = {
  replyLength: 'Reply length must be short, medium or long.',
  temperature: `Creativity must be a number from ${TEMPERATURE_MIN} to ${TEMPERATURE_MAX}.`,
  nothing: 'Send replyLength, temperature, narrator or several of them.',
} as const;

export const storySettingsSchema = z.object({
  replyLength: z.enum(REPLY_LENGTHS),
  /** The story's temperature, or the server's default (LLM_TEMPERATURE) until the player sets one. */
  temperature: z.number().min(TEMPERATURE_MIN).max(TEMPERATURE_MAX),
  /** The most the narrator in use accepts (Anthropic: 1): a higher temperature is sent as this. */
  temperatureMax: z.number().min(0).max(TEMPERATURE_MAX),
  /** The id of the narrator that writes the story's next turn (GET /api/narrators lists them). */
  narrator: z.string(),
  /**
   * True when the story names a narrator that left the catalogue or is closed to its owner: the
   * default writes it meanwhile.
   */
  narratorFellBack: z.boolean(),
});
export type StorySettings = z.infer<typeof storySettingsSchema>;

const temperature = z
  .number({ error: STORY_SETTINGS_MESSAGES.temperature })
  .min(TEMPERATURE_MIN, STORY_SETTINGS_MESSAGES.temperature)
  .max(TEMPERATURE_MAX, STORY_SETTINGS_MESSAGES.temperature)
  // Two decimals are all a slider gives or a sampler tells apart.
  .transform((n) => Math.round(n * 100) / 100);

/** A change: each field absent is left as it is; at least one is given. */
export const storySettingsBodySchema = z
  .object({
    replyLength: z.enum(REPLY_LENGTHS, { error: STORY_SETTINGS_MESSAGES.replyLength }).optional(),
    temperature: temperature.optional(),
    narrator: narratorIdSchema.optional(),
  })
  .refine((body) => body.replyLength !== undefined || body.temperature !== undefined || body.narrator !== undefined, {
    message: STORY_SETTINGS_MESSAGES.nothing,
    // A path of its own: the API's error handler words an issue at the body's root as "not an object".
    path: ['replyLength'],
  });
export type StorySettingsBody = z.infer<typeof storySettingsBodySchema>;
