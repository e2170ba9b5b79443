// A story's generation settings (issue 27) as the narrator is asked with them: the reply length as
// output tokens within LLM_MAX_OUTPUT_TOKENS (and the words the rules ask for, ai/llm/prompts.ts),
// the temperature clamped to what the provider accepts; and as the settings' answer says them.
import type { LlmConfig } from '@server/kernel/config';
import type { StoryRecord } from '@server/db/repositories/stories';
import type { ReplyLength, StorySettings } from '@shared/schemas/story-settings';

/**
 * A short reply's cap: 40 % of LLM_MAX_OUTPUT_TOKENS (200 of 500, room for 90 words and a margin);
 * medium keeps today's cap and long has all of it, the rules' word counts telling them apart.
 */
const SHORT_SHARE = 0.4;
const MIN_OUTPUT_TOKENS = 64;

export function replyOutputTokens(length: ReplyLength, maxOutputTokens: number): number {
  if (length !== 'short') return maxOutputTokens;
  return Math.min(maxOutputTokens, Math.max(MIN_OUTPUT_TOKENS, Math.round(maxOutputTokens * SHORT_SHARE)));
}

/** The narrator's defaults for a story's settings: LLM_TEMPERATURE, and the provider's highest temperature. */
export interface GenerationDefaults {
  temperature: number;
  temperatureMax: number;
}

/** The stored temperature (a float4) as set: two decimals. */
const temperatureOf = (story: Pick<StoryRecord, 'temperature'>, defaults: GenerationDefaults) =>
  story.temperature === null ? defaults.temperature : Math.round(story.temperature * 100) / 100;

/** What a turn of this story asks the provider for. */
export function storyGeneration(
  story: Pick<StoryRecord, 'replyLength' | 'temperature'>,
  llm: Pick<LlmConfig, 'maxOutputTokens'>,
  defaults: GenerationDefaults,
): { maxOutputTokens: number; temperature: number } {
  return {
    maxOutputTokens: replyOutputTokens(story.replyLength, llm.maxOutputTokens),
    temperature: Math.min(temperatureOf(story, defaults), defaults.temperatureMax),
  };
}

export function settingsAnswer(
  story: Pick<StoryRecord, 'replyLength' | 'temperature'>,
  defaults: GenerationDefaults,
): StorySettings {
  return {
    replyLength: story.replyLength,
    temperature: temperatureOf(story, defaults),
    temperatureMax: defaults.temperatureMax,
  };
}
