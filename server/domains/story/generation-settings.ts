// A story's generation settings as the narrator is asked with them: the reply length as
// output tokens within LLM_MAX_OUTPUT_TOKENS (and the words the rules ask for, ai/llm/prompts.ts),
// the temperature clamped to what the provider accepts; and as the settings' answer says them.
import { MAX_TEMPERATURE } from '@server/ai/llm/registry';
import type { LlmConfig, LlmProviderId } from '@server/kernel/config';
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

/** The narrator's defaults for a story's settings: its temperature, and the highest it and its provider take. */
export interface GenerationDefaults {
  temperature: number;
  temperatureMax: number;
}

export function generationDefaults(
  llm: Pick<LlmConfig, 'temperature' | 'temperatureMax'>,
  provider: LlmProviderId,
): GenerationDefaults {
  return { temperature: llm.temperature, temperatureMax: Math.min(llm.temperatureMax, MAX_TEMPERATURE[provider]) };
}

/** A stored temperature (a float4) as it was set: two decimals; null stays null. */
export function storedTemperature(temperature: number | null): number | null {
  return temperature === null ? null : Math.round(temperature * 100) / 100;
}

const temperatureOf = (story: Pick<StoryRecord, 'temperature'>, defaults: GenerationDefaults) =>
  storedTemperature(story.temperature) ?? defaults.temperature;

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

/** The settings' answer: `narrator` is the one that writes the story (its defaults are `defaults`). */
export function settingsAnswer(
  story: Pick<StoryRecord, 'replyLength' | 'temperature'>,
  defaults: GenerationDefaults,
  narrator: { id: string; fellBack: boolean },
): StorySettings {
  return {
    replyLength: story.replyLength,
    temperature: temperatureOf(story, defaults),
    temperatureMax: defaults.temperatureMax,
    narrator: narrator.id,
    narratorFellBack: narrator.fellBack,
  };
}
