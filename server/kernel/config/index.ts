// Reads the environment once, validates every variable with zod and fails fast with one clear line
// per bad value. Nothing else in the server reads process.env. The variables are the registry's
// (registry.ts); the app's configuration is what `appConfig` maps them to, and its type is derived
// from that mapping.
import { resolve } from 'node:path';
import { adsConfig } from './ads';
import { checkEmbeddings, embeddingsConfig } from './embeddings';
import { checkImage, imageConfig } from './image';
import { quotaLimits } from './limits';
import { checkLlm, llmConfig } from './llm';
import { catalogueOfOne, readNarratorCatalogue, type NarratorCatalogue } from './narrators';
import { envSchema, type ParsedEnv } from './registry';
import { parseTrustProxy } from './server';
import { checkSpeech, sttConfig, ttsConfig } from './speech';

export * from './ads';
export * from './embeddings';
export * from './image';
export * from './limits';
export * from './llm';
export * from './loop-guard';
export * from './narrators';
export * from './registry';
export * from './server';
export * from './setting';
export * from './speech';

/** The app's configuration, from the parsed environment and the narrator catalogue it names. */
function appConfig(e: ParsedEnv, narrators: NarratorCatalogue) {
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: resolve(e.DATA_DIR),
    /** baseline: the embedded database's WebAssembly compiled by V8's baseline compiler alone (EMBEDDED_DB_COMPILER). */
    embeddedDbCompiler: e.EMBEDDED_DB_COMPILER,
    databaseUrl: e.DATABASE_URL || undefined,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    adminUsernames: e.ADMIN_USERNAMES.split(',')
      .map((name) => name.trim().toLowerCase())
      .filter(Boolean),
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    cookieSecure: e.COOKIE_SECURE === 'auto' ? ('auto' as const) : e.COOKIE_SECURE === 'true',
    logLevel: e.LOG_LEVEL,
    /** auto: readable lines on a terminal, JSON otherwise (LOG_FORMAT). */
    logFormat: e.LOG_FORMAT,
    /** How long a SIGTERM waits for replies and pictures in flight before the process closes. */
    shutdownDrainMs: e.SHUTDOWN_DRAIN_MS,
    rateLimits: {
      loginMaxFailures: e.LOGIN_MAX_FAILURES,
      loginWindowMs: e.LOGIN_FAILURE_WINDOW_MINUTES * 60_000,
      registerPerHour: e.REGISTER_MAX_PER_HOUR,
      captchaPerMinute: e.CAPTCHA_MAX_PER_MINUTE,
    },
    /** Public shared-story reads (API and link-preview page) per IP per minute. */
    sharedReadsPerMinute: e.SHARED_READS_PER_MINUTE,
    /** Lookups that tell whether a name or an email is taken, per IP (/64): enumeration bounds. */
    accountLookups: {
      usernameChecksPerMinute: e.USERNAME_CHECKS_PER_MINUTE,
      emailUpdatesPerHour: e.EMAIL_UPDATES_PER_HOUR,
    },
    /** Shared stories' pictures per IP per minute (their own bucket: one gallery is many pictures). */
    sharedPicturesPerMinute: e.SHARED_PICTURES_PER_MINUTE,
    /** The largest shared snapshot, in bytes of its JSON answer; a bigger story is refused at sharing (413). */
    shareMaxBytes: e.SHARE_MAX_BYTES,
    /** Where several instances share request-limit counts and stopped shares; url undefined: in-process only. */
    redis: { url: e.REDIS_URL, keyPrefix: e.REDIS_KEY_PREFIX },
    /** The address readers use (for link-preview URLs and exported picture links). */
    publicUrl: e.PUBLIC_URL ? e.PUBLIC_URL.replace(/\/+$/, '') : undefined,
    /** Without PUBLIC_URL, request hosts trusted for absolute URLs besides loopback (lower case; an entry without a port matches any). */
    allowedHosts: e.ALLOWED_HOSTS,
    /** Serve the built SPA from dist/client (off in API tests, where no build exists). */
    serveClient: e.SERVE_CLIENT,
    clientDir: resolve('dist/client'),
    /** Compressed answers (brotli/gzip) and the build's precompressed files; off behind a compressing proxy. */
    compression: e.COMPRESSION,
    /** The bearer token GET /metrics asks for; null: only a loopback caller with no proxy header may read it. */
    metricsToken: e.METRICS_TOKEN ?? null,
    /** The default narrator's configuration: what a story that names no narrator is written with. */
    llm: defaultNarratorOf(narrators).llm,
    /** The narrators players pick from (NARRATORS_FILE; without it, one made of LLM_*, id `default`). */
    narrators,
    /** Tokens a user may spend per calendar month (UTC); null is unlimited. */
    userMonthlyTokenLimit: e.USER_MONTHLY_TOKEN_LIMIT ?? null,
    /** Narrator calls each player may make per hour: turns (with retries and alternatives), and side calls (memory summaries, titles, style sheets). */
    narratorCallsPerHour: { turns: e.USER_TURNS_PER_HOUR, sideCalls: e.USER_SIDE_CALLS_PER_HOUR },
    /** What one account may keep: stories, live share links and the bytes of their text (USER_MAX_*). */
    quotas: quotaLimits(e),
    /** Story cards a story may hold (STORY_MAX_CARDS). */
    storyMaxCards: e.STORY_MAX_CARDS,
    /** Scenarios an account may keep, and publishes per player per hour (USER_MAX_SCENARIOS, SCENARIO_PUBLISH_PER_HOUR). */
    scenarios: { maxPerUser: e.USER_MAX_SCENARIOS, publishPerHour: e.SCENARIO_PUBLISH_PER_HOUR },
    image: imageConfig(e),
    /**
     * How long past the painter's timeout a running picture job may go unfinished before it counts as
     * abandoned (its instance died) and is retried, by any instance; instances look for such jobs every
     * min(30, this) seconds (IMAGE_JOB_GRACE_SECONDS).
     */
    imageJobGraceSeconds: e.IMAGE_JOB_GRACE_SECONDS,
    /** Server voices (TTS_*); provider 'none' leaves narration to the browser's own voices. */
    tts: ttsConfig(e),
    /** Server transcription of voice input (STT_*). */
    stt: sttConfig(e),
    /** Embeddings for the memory bank's recall (EMBEDDINGS_*); provider 'none' recalls by full text alone. */
    embeddings: embeddingsConfig(e),
    ads: adsConfig(e),
  };
}

export type AppConfig = ReturnType<typeof appConfig>;

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
  // With a catalogue file, LLM_* no longer name a narrator of their own: only the file's are checked.
  const problems = [
    ...(e.NARRATORS_FILE ? [] : checkLlm(e)),
    ...checkImage(e),
    ...checkSpeech(e),
    ...checkEmbeddings(e),
  ];
  const catalogue = e.NARRATORS_FILE
    ? readNarratorCatalogue(e.NARRATORS_FILE, llmConfig(e), present)
    : { catalogue: catalogueOfOne(llmConfig(e)) };
  if ('problems' in catalogue) problems.push(...catalogue.problems);
  if (problems.length > 0 || !('catalogue' in catalogue)) throw new ConfigError(problems);
  return appConfig(e, catalogue.catalogue);
}

/** The catalogue's default narrator (start-up checked that it is one of them). */
export function defaultNarratorOf(catalogue: NarratorCatalogue) {
  return catalogue.narrators.find((narrator) => narrator.id === catalogue.defaultId) ?? catalogue.narrators[0];
}
