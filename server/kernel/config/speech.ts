// Server voices (TTS_*) and transcription (STT_*): off unless a provider is named.
import { z } from 'zod';
import { httpUrl, OPENAI_BASE_URL, positiveInt, providerId } from './env';

export const TTS_PROVIDERS = ['none', 'openai'] as const;
export type TtsProviderId = (typeof TTS_PROVIDERS)[number];
export const STT_PROVIDERS = ['none', 'openai'] as const;
export type SttProviderId = (typeof STT_PROVIDERS)[number];

/** OpenAI's own voices: the picker's list when TTS_VOICES is unset. */
export const DEFAULT_TTS_VOICES = [
  'alloy',
  'ash',
  'coral',
  'echo',
  'fable',
  'nova',
  'onyx',
  'sage',
  'shimmer',
] as const;

export interface TtsConfig {
  provider: TtsProviderId;
  baseUrl: string;
  apiKey: string | undefined;
  model: string;
  /** The voices offered in the picker; a request for any other is refused before the provider sees it. */
  voices: string[];
  timeoutMs: number;
  /** Uncached sentence clips one player may have synthesised per hour. */
  maxPerHour: number;
}

export interface SttConfig {
  provider: SttProviderId;
  baseUrl: string;
  apiKey: string | undefined;
  model: string;
  timeoutMs: number;
  /** Recordings one player may have transcribed per hour. */
  maxPerHour: number;
}

/** Voice names as providers spell them: OpenAI's `nova`, Kokoro's `af_bella` or a blend `af_bella(2)+af_sky(1)`. */
const VOICE_NAME = /^[\w.+()-]{1,100}$/;

export const speechEnv = {
  TTS_PROVIDER: providerId('TTS_PROVIDER', TTS_PROVIDERS),
  TTS_BASE_URL: httpUrl('TTS_BASE_URL').default(OPENAI_BASE_URL),
  TTS_API_KEY: z.string().trim().optional(),
  TTS_MODEL: z.string().trim().optional(),
  TTS_VOICES: z
    .string()
    .transform((v) => [
      ...new Set(
        v
          .split(',')
          .map((voice) => voice.trim())
          .filter(Boolean),
      ),
    ])
    .refine(
      (voices) => voices.length > 0 && voices.every((voice) => VOICE_NAME.test(voice)),
      'TTS_VOICES must be a comma list of voice names (letters, digits and _ - . + ( ), at most 100 characters each)',
    )
    .optional(),
  TTS_TIMEOUT_MS: positiveInt('TTS_TIMEOUT_MS').default(30_000),
  TTS_MAX_PER_HOUR: positiveInt('TTS_MAX_PER_HOUR').default(600),
  STT_PROVIDER: providerId('STT_PROVIDER', STT_PROVIDERS),
  STT_BASE_URL: httpUrl('STT_BASE_URL').default(OPENAI_BASE_URL),
  STT_API_KEY: z.string().trim().optional(),
  STT_MODEL: z.string().trim().optional(),
  STT_TIMEOUT_MS: positiveInt('STT_TIMEOUT_MS').default(60_000),
  STT_MAX_PER_HOUR: positiveInt('STT_MAX_PER_HOUR').default(60),
};

type SpeechEnv = z.infer<z.ZodObject<typeof speechEnv>>;

/** Rules that tie the speech variables together. */
export function checkSpeech(e: SpeechEnv): string[] {
  const problems: string[] = [];
  if (e.TTS_PROVIDER !== 'none' && !e.TTS_MODEL)
    problems.push(
      `TTS_MODEL: TTS_MODEL is required when TTS_PROVIDER is ${e.TTS_PROVIDER} (for example gpt-4o-mini-tts, tts-1 or kokoro)`,
    );
  if (e.STT_PROVIDER !== 'none' && !e.STT_MODEL)
    problems.push(
      `STT_MODEL: STT_MODEL is required when STT_PROVIDER is ${e.STT_PROVIDER} (for example whisper-1 or gpt-4o-mini-transcribe)`,
    );
  return problems;
}

export function ttsConfig(e: SpeechEnv): TtsConfig {
  return {
    provider: e.TTS_PROVIDER,
    baseUrl: e.TTS_BASE_URL.replace(/\/+$/, ''),
    apiKey: e.TTS_API_KEY || undefined,
    model: e.TTS_MODEL ?? '',
    voices: e.TTS_VOICES ?? [...DEFAULT_TTS_VOICES],
    timeoutMs: e.TTS_TIMEOUT_MS,
    maxPerHour: e.TTS_MAX_PER_HOUR,
  };
}

export function sttConfig(e: SpeechEnv): SttConfig {
  return {
    provider: e.STT_PROVIDER,
    baseUrl: e.STT_BASE_URL.replace(/\/+$/, ''),
    apiKey: e.STT_API_KEY || undefined,
    model: e.STT_MODEL ?? '',
    timeoutMs: e.STT_TIMEOUT_MS,
    maxPerHour: e.STT_MAX_PER_HOUR,
  };
}
