// Reads the environment once, validates every variable with zod and fails fast with one clear line
// per bad value. Nothing else in the server reads process.env.
import { resolve } from 'node:path';
import { z } from 'zod';
import { booleanFlag, httpUrl } from './env';
import { checkEmbeddings, embeddingsConfig, embeddingsEnv, type EmbeddingsConfig } from './embeddings';
import { checkImage, imageConfig, imageEnv, type ImageConfig } from './image';
import { limitsEnv, BYTES_PER_MB, type QuotaLimits } from './limits';
import { checkLlm, llmConfig, llmEnv, type LlmConfig } from './llm';
import { parseTrustProxy, serverEnv, type TrustProxy } from './server';
import { checkSpeech, speechEnv, sttConfig, ttsConfig, type SttConfig, type TtsConfig } from './speech';

export * from './embeddings';
export * from './image';
export * from './limits';
export * from './llm';
export * from './loop-guard';
export * from './server';
export * from './speech';

const adsEnv = {
  ADS_ENABLED: booleanFlag('ADS_ENABLED').default(true),
  AD_SPONSOR_URL: httpUrl('AD_SPONSOR_URL').optional(),
};

/**
 * The settings by topic, in the order docs/configuration.md lists them: what `.env.example` is
 * written from (npm run config:example), and what a test holds the document and the example to.
 */
export const CONFIG_GROUPS: ReadonlyArray<{ title: string; names: readonly string[] }> = [
  { title: 'Server, database and operations', names: Object.keys(serverEnv) },
  { title: 'Narrator', names: Object.keys(llmEnv) },
  { title: "Players' limits", names: Object.keys(limitsEnv) },
  { title: 'Pictures', names: Object.keys(imageEnv) },
  { title: 'Voices and transcription', names: Object.keys(speechEnv) },
  { title: 'Embeddings', names: Object.keys(embeddingsEnv) },
  { title: 'Ads', names: Object.keys(adsEnv) },
];

// One schema of every group's variables.
const envSchema = z.object({
  ...serverEnv,
  ...llmEnv,
  ...limitsEnv,
  ...imageEnv,
  ...speechEnv,
  ...embeddingsEnv,
  ...adsEnv,
});

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
  /** auto: readable lines on a terminal, JSON otherwise (LOG_FORMAT). */
  logFormat: 'auto' | 'json' | 'pretty';
  /** How long a SIGTERM waits for replies and pictures in flight before the process closes. */
  shutdownDrainMs: number;
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
  /** The bearer token GET /metrics asks for; null: only a loopback caller with no proxy header may read it. */
  metricsToken: string | null;
  llm: LlmConfig;
  /** Tokens a user may spend per calendar month (UTC); null is unlimited. */
  userMonthlyTokenLimit: number | null;
  /** Narrator calls each player may make per hour: turns (with retries and alternatives), and side calls (memory summaries, titles, style sheets). */
  narratorCallsPerHour: { turns: number; sideCalls: number };
  /** What one account may keep: stories, live share links and the bytes of their text (USER_MAX_*). */
  quotas: QuotaLimits;
  /** Story cards a story may hold (STORY_MAX_CARDS). */
  storyMaxCards: number;
  image: ImageConfig;
  /**
   * How long past the painter's timeout a running picture job may go unfinished before it counts as
   * abandoned (its instance died) and is retried, by any instance; instances look for such jobs every
   * min(30, this) seconds (IMAGE_JOB_GRACE_SECONDS).
   */
  imageJobGraceSeconds: number;
  /** Server voices (TTS_*); provider 'none' leaves narration to the browser's own voices. */
  tts: TtsConfig;
  /** Server transcription of voice input (STT_*). */
  stt: SttConfig;
  /** Embeddings for the memory bank's recall (EMBEDDINGS_*); provider 'none' recalls by full text alone. */
  embeddings: EmbeddingsConfig;
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

/** Parses an environment (process.env by default) into the app's configuration or throws ConfigError. */
export function loadConfig(env: Record<string, string | undefined> = process.env): AppConfig {
  // Empty strings count as unset, as they do for most twelve-factor apps.
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.') || 'env'}: ${issue.message}`));
  }
  const e = parsed.data;
  const llmProblems = [...checkLlm(e), ...checkImage(e), ...checkSpeech(e), ...checkEmbeddings(e)];
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
    logFormat: e.LOG_FORMAT as AppConfig['logFormat'],
    shutdownDrainMs: e.SHUTDOWN_DRAIN_MS,
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
    metricsToken: e.METRICS_TOKEN ?? null,
    llm: llmConfig(e),
    userMonthlyTokenLimit: e.USER_MONTHLY_TOKEN_LIMIT ?? null,
    narratorCallsPerHour: { turns: e.USER_TURNS_PER_HOUR, sideCalls: e.USER_SIDE_CALLS_PER_HOUR },
    quotas: {
      maxStories: e.USER_MAX_STORIES,
      maxShares: e.USER_MAX_SHARES,
      maxStoredBytes: e.USER_MAX_STORED_MB * BYTES_PER_MB,
    },
    storyMaxCards: e.STORY_MAX_CARDS,
    image: imageConfig(e),
    imageJobGraceSeconds: e.IMAGE_JOB_GRACE_SECONDS,
    tts: ttsConfig(e),
    stt: sttConfig(e),
    embeddings: embeddingsConfig(e),
    ads: { enabled: e.ADS_ENABLED, sponsorUrl: e.AD_SPONSOR_URL ?? null },
  };
}
