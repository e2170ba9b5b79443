// Reads the environment once, validates every variable with zod and fails fast with one clear line
// per bad value. Nothing else in the server reads process.env.
import { resolve } from 'node:path';
import { z } from 'zod';
import { IMAGE_PROVIDERS, type ImageConfig, type ImageProviderId } from '../../ai/image/types';
import {
  DEFAULT_TTS_VOICES,
  STT_PROVIDERS,
  TTS_PROVIDERS,
  type SttConfig,
  type SttProviderId,
  type TtsConfig,
  type TtsProviderId,
} from '../../ai/speech/types';

const OPENAI_BASE_URL = 'https://api.openai.com/v1';

const booleanFlag = (name: string) =>
  z
    .string()
    .trim()
    .toLowerCase()
    .refine((v) => ['true', 'false', '1', '0', 'yes', 'no'].includes(v), `${name} must be true or false`)
    .transform((v) => ['true', '1', 'yes'].includes(v));

const positiveInt = (name: string) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, `${name} must be a whole number`)
    .transform(Number)
    .refine((n) => n > 0, `${name} must be greater than 0`);

const httpUrl = (name: string) =>
  z
    .string()
    .trim()
    .refine((v) => /^https?:\/\/[^\s]+$/.test(v) && URL.canParse(v), `${name} must be an http:// or https:// URL`);

/** 'none' (the default) or one of the provider ids, case-insensitive. */
const providerId = <T extends string>(name: string, ids: readonly T[]) =>
  z
    .string()
    .trim()
    .toLowerCase()
    .refine((v) => (ids as readonly string[]).includes(v), `${name} must be ${ids.join(' or ')}`)
    .transform((v) => v as T)
    .prefault('none');

/** A host name or bracketed IPv6 address as a Host header carries it, optionally with a port. */
const ALLOWED_HOST =
  /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/;

/** Voice names as providers spell them: OpenAI's `nova`, Kokoro's `af_bella` or a blend `af_bella(2)+af_sky(1)`. */
const VOICE_NAME = /^[\w.+()-]{1,100}$/;

const envSchema = z.object({
  PORT: z
    .string()
    .trim()
    .regex(/^\d+$/, 'PORT must be a whole number between 0 and 65535')
    .transform(Number)
    .refine((n) => n <= 65535, 'PORT must be a whole number between 0 and 65535')
    .default(3000),
  HOST: z.string().trim().min(1, 'HOST must not be empty').default('0.0.0.0'),
  DATA_DIR: z.string().trim().min(1, 'DATA_DIR must not be empty').default('./data'),
  DATABASE_URL: z
    .string()
    .trim()
    .refine(
      (v) => v === '' || /^postgres(ql)?:\/\//.test(v),
      'DATABASE_URL must start with postgres:// or postgresql://',
    )
    .optional(),
  DATABASE_POOL_SIZE: positiveInt('DATABASE_POOL_SIZE').default(10),
  ADMIN_USERNAMES: z.string().default(''),
  TRUST_PROXY: z
    .string()
    .trim()
    .refine(
      (v) =>
        v === '' || ['true', 'false'].includes(v.toLowerCase()) || /^\d+$/.test(v) || /^[0-9a-fA-F:.,/\s]+$/.test(v),
      'TRUST_PROXY must be true, false, a hop count or a comma list of proxy addresses',
    )
    .default('false'),
  COOKIE_SECURE: z
    .string()
    .trim()
    .toLowerCase()
    .refine((v) => ['auto', 'true', 'false'].includes(v), 'COOKIE_SECURE must be auto, true or false')
    .default('auto'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOGIN_MAX_FAILURES: positiveInt('LOGIN_MAX_FAILURES').default(10),
  LOGIN_FAILURE_WINDOW_MINUTES: positiveInt('LOGIN_FAILURE_WINDOW_MINUTES').default(15),
  REGISTER_MAX_PER_HOUR: positiveInt('REGISTER_MAX_PER_HOUR').default(30),
  CAPTCHA_MAX_PER_MINUTE: positiveInt('CAPTCHA_MAX_PER_MINUTE').default(30),
  SHARED_READS_PER_MINUTE: positiveInt('SHARED_READS_PER_MINUTE').default(120),
  USERNAME_CHECKS_PER_MINUTE: positiveInt('USERNAME_CHECKS_PER_MINUTE').default(30),
  EMAIL_UPDATES_PER_HOUR: positiveInt('EMAIL_UPDATES_PER_HOUR').default(10),
  SHARED_PICTURES_PER_MINUTE: positiveInt('SHARED_PICTURES_PER_MINUTE').default(600),
  SHARE_MAX_BYTES: positiveInt('SHARE_MAX_BYTES').default(8 * 1024 * 1024),
  REDIS_URL: z
    .string()
    .trim()
    .refine(
      (v) => /^rediss?:\/\/[^\s]*$/.test(v) && URL.canParse(v),
      'REDIS_URL must be a redis:// or rediss:// URL, for example redis://127.0.0.1:6379',
    )
    .optional(),
  REDIS_KEY_PREFIX: z
    .string()
    .trim()
    .regex(/^[\w:.-]{1,64}$/, 'REDIS_KEY_PREFIX must be 1 to 64 letters, digits or _ : . -')
    .default('taleweaver:'),
  PUBLIC_URL: z
    .string()
    .trim()
    .refine(
      (v) => /^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/.test(v),
      'PUBLIC_URL must be an http:// or https:// address without query or fragment',
    )
    .optional(),
  ALLOWED_HOSTS: z
    .string()
    .transform((v) => [
      ...new Set(
        v
          .split(',')
          .map((host) => host.trim().toLowerCase())
          .filter(Boolean),
      ),
    ])
    .refine(
      (hosts) => hosts.every((host) => ALLOWED_HOST.test(host)),
      'ALLOWED_HOSTS must be a comma list of host names, each optionally with :port (for example stories.example.com,www.stories.example.com)',
    )
    .default([]),
  SERVE_CLIENT: booleanFlag('SERVE_CLIENT').default(true),
  COMPRESSION: booleanFlag('COMPRESSION').default(true),
  LLM_PROVIDER: z
    .string()
    .trim()
    .toLowerCase()
    .refine(
      (v) => (LLM_PROVIDERS as readonly string[]).includes(v),
      'LLM_PROVIDER must be builtin, openai or anthropic',
    )
    .transform((v) => v as LlmProviderId)
    .default('builtin'),
  LLM_BASE_URL: httpUrl('LLM_BASE_URL').optional(),
  LLM_API_KEY: z.string().trim().optional(),
  LLM_MODEL: z.string().trim().optional(),
  LLM_TIMEOUT_MS: positiveInt('LLM_TIMEOUT_MS').default(60_000),
  LLM_CONTEXT_TOKENS: positiveInt('LLM_CONTEXT_TOKENS').default(8192),
  LLM_MAX_OUTPUT_TOKENS: positiveInt('LLM_MAX_OUTPUT_TOKENS').default(500),
  LLM_TEMPERATURE: z
    .string()
    .trim()
    .regex(/^\d+(\.\d+)?$/, 'LLM_TEMPERATURE must be a number between 0 and 2')
    .transform(Number)
    .refine((n) => n <= 2, 'LLM_TEMPERATURE must be a number between 0 and 2')
    .default(0.8),
  BUILTIN_NARRATOR_WORD_DELAY_MS: z
    .string()
    .trim()
    .regex(/^\d+$/, 'BUILTIN_NARRATOR_WORD_DELAY_MS must be a whole number of milliseconds (0 for instant)')
    .transform(Number)
    .default(35),
  USER_MONTHLY_TOKEN_LIMIT: positiveInt('USER_MONTHLY_TOKEN_LIMIT').optional(),
  USER_TURNS_PER_HOUR: positiveInt('USER_TURNS_PER_HOUR').default(300),
  USER_SIDE_CALLS_PER_HOUR: positiveInt('USER_SIDE_CALLS_PER_HOUR').default(300),
  USER_MAX_STORIES: positiveInt('USER_MAX_STORIES').default(1000),
  USER_MAX_SHARES: positiveInt('USER_MAX_SHARES').default(200),
  USER_MAX_STORED_MB: positiveInt('USER_MAX_STORED_MB').default(500),
  IMAGE_PROVIDER: z
    .string()
    .trim()
    .toLowerCase()
    .refine(
      (v) => (IMAGE_PROVIDERS as readonly string[]).includes(v),
      'IMAGE_PROVIDER must be builtin, openai, automatic1111 or none',
    )
    .transform((v) => v as ImageProviderId)
    .default('builtin'),
  IMAGE_BASE_URL: httpUrl('IMAGE_BASE_URL').optional(),
  IMAGE_API_KEY: z.string().trim().optional(),
  IMAGE_MODEL: z.string().trim().optional(),
  IMAGE_TIMEOUT_MS: positiveInt('IMAGE_TIMEOUT_MS').default(120_000),
  IMAGE_CONCURRENCY: positiveInt('IMAGE_CONCURRENCY').default(2),
  IMAGE_MAX_PER_HOUR: positiveInt('IMAGE_MAX_PER_HOUR').default(30),
  IMAGE_SIZE: z
    .string()
    .trim()
    .regex(/^\d{2,4}x\d{2,4}$/, 'IMAGE_SIZE must be WIDTHxHEIGHT, for example 1024x576')
    .optional(),
  IMAGE_STEPS: positiveInt('IMAGE_STEPS').default(25),
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
  ADS_ENABLED: booleanFlag('ADS_ENABLED').default(true),
  AD_SPONSOR_URL: httpUrl('AD_SPONSOR_URL').optional(),
});

export const LLM_PROVIDERS = ['builtin', 'openai', 'anthropic'] as const;
export {
  IMAGE_PROVIDERS,
  type ImageConfig,
  type ImageProviderId,
  type SttConfig,
  type SttProviderId,
  type TtsConfig,
  type TtsProviderId,
};
export const BUILTIN_IMAGE_MODEL = 'taleweaver-painter';
/** What each painter is asked for when IMAGE_SIZE is unset: 16:9, or the nearest wide size the API offers. */
const DEFAULT_IMAGE_SIZES: Record<ImageProviderId, string> = {
  builtin: '1024x576',
  openai: '1536x1024',
  automatic1111: '1024x576',
  none: '1024x576',
};
const DEFAULT_IMAGE_BASE_URLS: Record<ImageProviderId, string> = {
  builtin: '',
  openai: OPENAI_BASE_URL,
  automatic1111: 'http://127.0.0.1:7860',
  none: '',
};
export type LlmProviderId = (typeof LLM_PROVIDERS)[number];

/** USER_MAX_STORED_MB counts mebibytes. */
export const BYTES_PER_MB = 1024 * 1024;

export interface QuotaLimits {
  /** Stories an account may keep (started, imported and branched alike). */
  maxStories: number;
  /** Live share links an account may have. */
  maxShares: number;
  /** Bytes of stored story text (messages, their versions, premise, memory, notes, kept folds) and share snapshots. */
  maxStoredBytes: number;
}

/** The smallest prompt budget (context minus reply) that holds the rules, a full premise and an action. */
export const MIN_PROMPT_BUDGET_TOKENS = 2048;
const DEFAULT_BASE_URLS: Record<LlmProviderId, string> = {
  builtin: '',
  openai: OPENAI_BASE_URL,
  anthropic: 'https://api.anthropic.com/v1',
};
export const BUILTIN_MODEL = 'taleweaver-demo';

export interface LlmConfig {
  provider: LlmProviderId;
  baseUrl: string;
  apiKey: string | undefined;
  model: string;
  timeoutMs: number;
  contextTokens: number;
  maxOutputTokens: number;
  temperature: number;
  /** Pause between the offline narrator's words (0 streams at once; tests use 0). */
  builtinWordDelayMs: number;
}

export type TrustProxy = boolean | number | string;

export interface AppConfig {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  databasePoolSize: number;
  adminUsernames: string[];
  trustProxy: TrustProxy;
  cookieSecure: 'auto' | boolean;
  logLevel: string;
  rateLimits: {
    loginMaxFailures: number;
    loginWindowMs: number;
    registerPerHour: number;
    captchaPerMinute: number;
  };
  /** Public shared-story reads (API and link-preview page) per IP per minute. */
  sharedReadsPerMinute: number;
  /** Lookups that tell whether a name or an email is taken, per IP (/64): enumeration bounds. */
  accountLookups: { usernameChecksPerMinute: number; emailUpdatesPerHour: number };
  /** Shared stories' pictures per IP per minute (their own bucket: one gallery is many pictures). */
  sharedPicturesPerMinute: number;
  /** The largest shared snapshot, in bytes of its JSON answer; a bigger story is refused at sharing (413). */
  shareMaxBytes: number;
  /** Where several instances share request-limit counts and stopped shares; url undefined: in-process only. */
  redis: { url: string | undefined; keyPrefix: string };
  /** The address readers use (for link-preview URLs and exported picture links). */
  publicUrl: string | undefined;
  /** Without PUBLIC_URL, request hosts trusted for absolute URLs besides loopback (lower case; an entry without a port matches any). */
  allowedHosts: string[];
  /** Serve the built SPA from dist/client (off in API tests, where no build exists). */
  serveClient: boolean;
  clientDir: string;
  /** Compressed answers (brotli/gzip) and the build's precompressed files; off behind a compressing proxy. */
  compression: boolean;
  llm: LlmConfig;
  /** Tokens a user may spend per calendar month (UTC); null is unlimited. */
  userMonthlyTokenLimit: number | null;
  /** Narrator calls each player may make per hour: turns (with retries and alternatives), and side calls (memory summaries, titles, style sheets). */
  narratorCallsPerHour: { turns: number; sideCalls: number };
  /** What one account may keep: stories, live share links and the bytes of their text (USER_MAX_*). */
  quotas: QuotaLimits;
  image: ImageConfig;
  /** Server voices (TTS_*); provider 'none' leaves narration to the browser's own voices. */
  tts: TtsConfig;
  /** Server transcription of voice input (STT_*). */
  stt: SttConfig;
  ads: {
    /** ADS_ENABLED=false removes ads everywhere. */
    enabled: boolean;
    /** Where 'Visit Sponsor' leads; null shows the house ad for the in-app 'Support Taleweaver' page. */
    sponsorUrl: string | null;
  };
}

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

function parseTrustProxy(raw: string): TrustProxy {
  const value = raw.trim().toLowerCase();
  if (value === '' || value === 'false') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) return Number(value);
  return raw.trim();
}

/** Parses an environment (process.env by default) into the app's configuration or throws ConfigError. */
export function loadConfig(env: Record<string, string | undefined> = process.env): AppConfig {
  // Empty strings count as unset, as they do for most twelve-factor apps.
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.') || 'env'}: ${issue.message}`));
  }
  const e = parsed.data;
  const llmProblems = [...checkLlm(e), ...checkImage(e), ...checkSpeech(e)];
  if (llmProblems.length > 0) throw new ConfigError(llmProblems);
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL || undefined,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    adminUsernames: e.ADMIN_USERNAMES.split(',')
      .map((name) => name.trim().toLowerCase())
      .filter(Boolean),
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    cookieSecure: e.COOKIE_SECURE === 'auto' ? 'auto' : e.COOKIE_SECURE === 'true',
    logLevel: e.LOG_LEVEL,
    rateLimits: {
      loginMaxFailures: e.LOGIN_MAX_FAILURES,
      loginWindowMs: e.LOGIN_FAILURE_WINDOW_MINUTES * 60_000,
      registerPerHour: e.REGISTER_MAX_PER_HOUR,
      captchaPerMinute: e.CAPTCHA_MAX_PER_MINUTE,
    },
    sharedReadsPerMinute: e.SHARED_READS_PER_MINUTE,
    accountLookups: {
      usernameChecksPerMinute: e.USERNAME_CHECKS_PER_MINUTE,
      emailUpdatesPerHour: e.EMAIL_UPDATES_PER_HOUR,
    },
    sharedPicturesPerMinute: e.SHARED_PICTURES_PER_MINUTE,
    shareMaxBytes: e.SHARE_MAX_BYTES,
    redis: { url: e.REDIS_URL, keyPrefix: e.REDIS_KEY_PREFIX },
    publicUrl: e.PUBLIC_URL ? e.PUBLIC_URL.replace(/\/+$/, '') : undefined,
    allowedHosts: e.ALLOWED_HOSTS,
    serveClient: e.SERVE_CLIENT,
    clientDir: resolve('dist/client'),
    compression: e.COMPRESSION,
    llm: {
      provider: e.LLM_PROVIDER,
      baseUrl: (e.LLM_BASE_URL ?? DEFAULT_BASE_URLS[e.LLM_PROVIDER]).replace(/\/+$/, ''),
      apiKey: e.LLM_API_KEY || undefined,
      model: e.LLM_PROVIDER === 'builtin' ? BUILTIN_MODEL : (e.LLM_MODEL as string),
      timeoutMs: e.LLM_TIMEOUT_MS,
      contextTokens: e.LLM_CONTEXT_TOKENS,
      maxOutputTokens: e.LLM_MAX_OUTPUT_TOKENS,
      temperature: e.LLM_TEMPERATURE,
      builtinWordDelayMs: e.BUILTIN_NARRATOR_WORD_DELAY_MS,
    },
    userMonthlyTokenLimit: e.USER_MONTHLY_TOKEN_LIMIT ?? null,
    narratorCallsPerHour: { turns: e.USER_TURNS_PER_HOUR, sideCalls: e.USER_SIDE_CALLS_PER_HOUR },
    quotas: {
      maxStories: e.USER_MAX_STORIES,
      maxShares: e.USER_MAX_SHARES,
      maxStoredBytes: e.USER_MAX_STORED_MB * BYTES_PER_MB,
    },
    image: imageConfig(e),
    tts: {
      provider: e.TTS_PROVIDER,
      baseUrl: e.TTS_BASE_URL.replace(/\/+$/, ''),
      apiKey: e.TTS_API_KEY || undefined,
      model: e.TTS_MODEL ?? '',
      voices: e.TTS_VOICES ?? [...DEFAULT_TTS_VOICES],
      timeoutMs: e.TTS_TIMEOUT_MS,
      maxPerHour: e.TTS_MAX_PER_HOUR,
    },
    stt: {
      provider: e.STT_PROVIDER,
      baseUrl: e.STT_BASE_URL.replace(/\/+$/, ''),
      apiKey: e.STT_API_KEY || undefined,
      model: e.STT_MODEL ?? '',
      timeoutMs: e.STT_TIMEOUT_MS,
      maxPerHour: e.STT_MAX_PER_HOUR,
    },
    ads: { enabled: e.ADS_ENABLED, sponsorUrl: e.AD_SPONSOR_URL ?? null },
  };
}

/** Rules that tie the speech variables together. */
function checkSpeech(e: z.infer<typeof envSchema>): string[] {
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

function imageConfig(e: z.infer<typeof envSchema>): ImageConfig {
  const [width, height] = (e.IMAGE_SIZE ?? DEFAULT_IMAGE_SIZES[e.IMAGE_PROVIDER]).split('x').map(Number);
  return {
    provider: e.IMAGE_PROVIDER,
    baseUrl: (e.IMAGE_BASE_URL ?? DEFAULT_IMAGE_BASE_URLS[e.IMAGE_PROVIDER]).replace(/\/+$/, ''),
    apiKey: e.IMAGE_API_KEY || undefined,
    model:
      e.IMAGE_PROVIDER === 'builtin'
        ? BUILTIN_IMAGE_MODEL
        : (e.IMAGE_MODEL ?? (e.IMAGE_PROVIDER === 'automatic1111' ? 'automatic1111' : '')),
    timeoutMs: e.IMAGE_TIMEOUT_MS,
    concurrency: e.IMAGE_CONCURRENCY,
    maxPerHour: e.IMAGE_MAX_PER_HOUR,
    width,
    height,
    steps: e.IMAGE_STEPS,
  };
}

/** Rules that tie the image variables together. */
function checkImage(e: z.infer<typeof envSchema>): string[] {
  const problems: string[] = [];
  if (e.IMAGE_PROVIDER === 'openai' && !e.IMAGE_MODEL)
    problems.push(
      'IMAGE_MODEL: IMAGE_MODEL is required when IMAGE_PROVIDER is openai (for example gpt-image-1 or dall-e-3)',
    );
  if (e.IMAGE_SIZE) {
    const [width, height] = e.IMAGE_SIZE.split('x').map(Number);
    if (width < 64 || height < 64 || width > 4096 || height > 4096)
      problems.push('IMAGE_SIZE: IMAGE_SIZE must be between 64x64 and 4096x4096');
  }
  return problems;
}

/** Rules that tie several LLM variables together; each problem names the variable to change. */
function checkLlm(e: z.infer<typeof envSchema>): string[] {
  const problems: string[] = [];
  if (e.LLM_PROVIDER !== 'builtin' && !e.LLM_MODEL) {
    problems.push(`LLM_MODEL: LLM_MODEL is required when LLM_PROVIDER is ${e.LLM_PROVIDER}`);
  }
  if (e.LLM_PROVIDER === 'anthropic' && !e.LLM_API_KEY) {
    problems.push('LLM_API_KEY: LLM_API_KEY is required when LLM_PROVIDER is anthropic');
  }
  if (e.LLM_CONTEXT_TOKENS - e.LLM_MAX_OUTPUT_TOKENS < MIN_PROMPT_BUDGET_TOKENS) {
    problems.push(
      `LLM_CONTEXT_TOKENS: LLM_CONTEXT_TOKENS must exceed LLM_MAX_OUTPUT_TOKENS by at least ${MIN_PROMPT_BUDGET_TOKENS} (the prompt needs room for the rules, the premise and the action)`,
    );
  }
  return problems;
}
