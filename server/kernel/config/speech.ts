// Server voices (TTS_*) and transcription (STT_*): off unless a provider is named.
import { z } from 'zod';
import { httpUrl, OPENAI_BASE_URL, positiveInt, providerId } from './env';
import { setting, type ParsedSettings } from './setting';

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

/** Voice names as providers spell them: OpenAI's `nova`, Kokoro's `af_bella` or a blend `af_bella(2)+af_sky(1)`. */
const VOICE_NAME = /^[\w.+()-]{1,100}$/;

export const speechSettings = {
  TTS_PROVIDER: setting({
    group: 'Voices',
    doc: "Server voices for narration: `none` (the browser's own voices only) or `openai` (any compatible server).",
    default: 'none',
    example: 'openai',
    schema: providerId('TTS_PROVIDER', TTS_PROVIDERS),
  }),
  TTS_BASE_URL: setting({
    group: 'Voices',
    doc: 'The voice API root, e.g. `http://127.0.0.1:8880/v1` for Kokoro-FastAPI.',
    default: OPENAI_BASE_URL,
    example: 'http://127.0.0.1:8880/v1',
    schema: httpUrl('TTS_BASE_URL'),
  }),
  TTS_API_KEY: setting({
    group: 'Voices',
    doc: "The voice service's key (a Bearer token; local servers often need none).",
    secret: true,
    schema: z.string().trim(),
  }),
  TTS_MODEL: setting({
    group: 'Voices',
    doc: 'Model name; required for `openai` (`gpt-4o-mini-tts`, `tts-1`, `kokoro`, …).',
    example: 'kokoro',
    schema: z.string().trim(),
  }),
  TTS_VOICES: setting({
    group: 'Voices',
    doc: "Comma list of the voices offered in the picker (OpenAI's by default); other names are refused.",
    default: DEFAULT_TTS_VOICES.join(','),
    example: 'af_bella,am_adam',
    schema: z
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
      ),
  }),
  TTS_TIMEOUT_MS: setting({
    group: 'Voices',
    doc: 'Longest one spoken sentence may take; then 504.',
    default: '30000',
    schema: positiveInt('TTS_TIMEOUT_MS'),
  }),
  TTS_MAX_PER_HOUR: setting({
    group: 'Voices',
    doc: 'New sentence clips each player may have made per hour (replays of kept clips never count); then 429.',
    default: '600',
    schema: positiveInt('TTS_MAX_PER_HOUR'),
  }),
  STT_PROVIDER: setting({
    group: 'Voices',
    doc: 'Server transcription of voice input: `none` or `openai` (any compatible server).',
    default: 'none',
    example: 'openai',
    schema: providerId('STT_PROVIDER', STT_PROVIDERS),
  }),
  STT_BASE_URL: setting({
    group: 'Voices',
    doc: 'The transcription API root.',
    default: OPENAI_BASE_URL,
    schema: httpUrl('STT_BASE_URL'),
  }),
  STT_API_KEY: setting({
    group: 'Voices',
    doc: "The transcription service's key (a Bearer token).",
    secret: true,
    schema: z.string().trim(),
  }),
  STT_MODEL: setting({
    group: 'Voices',
    doc: 'Model name; required for `openai` (`whisper-1`, `gpt-4o-mini-transcribe`, …).',
    example: 'whisper-1',
    schema: z.string().trim(),
  }),
  STT_TIMEOUT_MS: setting({
    group: 'Voices',
    doc: 'Longest one transcription may take; then 504.',
    default: '60000',
    schema: positiveInt('STT_TIMEOUT_MS'),
  }),
  STT_MAX_PER_HOUR: setting({
    group: 'Voices',
    doc: 'Recordings each player may have transcribed per hour; then 429.',
    default: '60',
    schema: positiveInt('STT_MAX_PER_HOUR'),
  }),
};

type SpeechEnv = ParsedSettings<typeof speechSettings>;

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

/** Server voices (`config.tts`), read from the TTS_* variables. */
export function ttsConfig(e: SpeechEnv) {
  return {
    provider: e.TTS_PROVIDER,
    baseUrl: e.TTS_BASE_URL.replace(/\/+$/, ''),
    apiKey: e.TTS_API_KEY || undefined,
    model: e.TTS_MODEL ?? '',
    /** The voices offered in the picker; a request for any other is refused before the provider sees it. */
    voices: e.TTS_VOICES,
    timeoutMs: e.TTS_TIMEOUT_MS,
    /** Uncached sentence clips one player may have synthesised per hour. */
    maxPerHour: e.TTS_MAX_PER_HOUR,
  };
}

export type TtsConfig = ReturnType<typeof ttsConfig>;

/** Server transcription (`config.stt`), read from the STT_* variables. */
export function sttConfig(e: SpeechEnv) {
  return {
    provider: e.STT_PROVIDER,
    baseUrl: e.STT_BASE_URL.replace(/\/+$/, ''),
    apiKey: e.STT_API_KEY || undefined,
    model: e.STT_MODEL ?? '',
    timeoutMs: e.STT_TIMEOUT_MS,
    /** Recordings one player may have transcribed per hour. */
    maxPerHour: e.STT_MAX_PER_HOUR,
  };
}

export type SttConfig = ReturnType<typeof sttConfig>;
