// The composition root: every service built from the configuration, the database and the
// providers (or the fakes a test passes), in the order they need each other, with what each must
// do at shutdown. app.ts puts HTTP around them; nothing else constructs a service.
import type { FastifyBaseLogger } from 'fastify';
import type { FastifyServerOptions } from 'fastify';
import { createEmbeddingsProvider } from './ai/embeddings/registry';
import { createImageProvider } from './ai/image/registry';
import type { ImageProvider } from './ai/image/types';
import { createNarratorProvider } from './ai/llm/registry';
import type { NarratorProvider } from './ai/llm/types';
import { createSttProvider, createTtsProvider } from './ai/speech/registry';
import type { SttProvider, TtsProvider } from './ai/speech/types';
import type { Database } from './db/client';
import { createRepositories } from './db/repositories';
import { createAccountService } from './domains/account/accounts';
import { createCaptchaService } from './domains/account/captcha';
import { createMyDataService } from './domains/account/my-data';
import { createPasswordHasher, type PasswordHasher } from './domains/account/passwords';
import { createSessionService, SESSION_ENDINGS } from './domains/account/sessions';
import { createAdminService } from './domains/admin/admin';
import { createBookmarkService } from './domains/bookmarks/bookmarks';
import { createScenarioService } from './domains/scenarios/scenarios';
import { createNarratorService } from './domains/narrators/narrators';
import { createImageService, imageUrl } from './domains/images';
import { allowanceConfig, createAllowance } from './domains/limits/allowance';
import { createQuotaService } from './domains/limits/quotas';
import { createRedisStore, createRequestLimiter } from './domains/limits/request-limits';
import { createSignInLimiter } from './domains/limits/sign-in-limits';
import { createPreferencesService, type PreferencesSource } from './domains/preferences/preferences';
import { createSharingService, SHARES_STOPPED } from './domains/sharing/sharing';
import { createSpeechService } from './domains/speech/speech';
import { createImportReader } from './domains/story/files/import-reader';
import { createStoryBible } from './domains/story/bible';
import { createStoryCardService } from './domains/story/cards/story-cards';
import { createStoryFileService } from './domains/story/files/story-files';
import { createLibraryService } from './domains/story/library';
import { createStoryService } from './domains/story/reads';
import { createMemoryBank } from './domains/story/memory/memory-bank';
import { createVectorRecall } from './domains/story/memory/vector-recall';
import { createTurnService } from './domains/story/turns';
import { createStoryVersionService } from './domains/story/versions';
import { createSharedStoryCache, sharedCacheBytes } from './http/presenters/shared-story-cache';
import { createStoryJson } from './http/presenters/story-json';
import { startJobQueue, type QueueOptions } from './jobs/queue';
import type { AppConfig } from './kernel/config';
import { createDrain, type Drain } from './kernel/drain';
import { createMetrics } from './kernel/metrics';
import { connectRedis, redisBroadcast } from './kernel/redis';

export interface AppDeps {
  database: Database;
  now?: () => Date;
  logger?: FastifyServerOptions['logger'];
  /** The narrator; by default the one LLM_PROVIDER names. */
  narrator?: NarratorProvider;
  /** Where pictures and the narrator (a story start, a retry) read a player's preferences; by default the database. A continue reads them from the database with its lease. */
  preferences?: PreferencesSource;
  /** The painter; by default the one IMAGE_PROVIDER names (null: pictures off). */
  painter?: ImageProvider | null;
  /** The server voice; by default the one TTS_PROVIDER names (null: browser voices only). */
  tts?: TtsProvider | null;
  /** The transcriber; by default the one STT_PROVIDER names (null: no server transcription). */
  stt?: SttProvider | null;
  /** Job queue timings (tests shorten them). */
  jobs?: QueueOptions;
  /** How passwords are hashed; by default Argon2id at the library's costs (only the test app passes cheaper ones). */
  passwords?: PasswordHasher;
  /** The SIGTERM drain main.ts begins; by default one that no signal begins (tests begin it themselves). */
  drain?: Drain;
}

/** Everything the routes call. */
export type Services = Awaited<ReturnType<typeof composeServices>>;

// The routes' context (http/routes/context.ts) takes its services from here: a service returned
// below reaches every route with its type and its doc comment, no other file to edit.
declare module './http/routes/context' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- every member is Services'
  interface ComposedServices extends Services {}
}

/**
 * Builds the services. `onClose` registers shutdown work, run in the order registered (the Fastify
 * instance's onClose hooks).
 */
export async function composeServices(
  config: AppConfig,
  deps: AppDeps,
  log: FastifyBaseLogger,
  onClose: (hook: () => Promise<void> | void) => void,
) {
  const now = deps.now ?? (() => new Date());
  // This app's metrics (one registry per app: tests build many), scraped at GET /metrics.
  const metrics = createMetrics({ narrators: config.narrators.narrators.map((narrator) => narrator.id) });
  metrics.watchDatabasePool(deps.database.kind, () => deps.database.poolUse?.() ?? null);
  const repos = createRepositories(deps.database.db, metrics);
  // Every limit but logins' and registrations' is counted off the database: in memory, or in Redis
  // when instances must agree; Redis also tells the instances of ended sessions and stopped shares.
  const redis = config.redis.url
    ? await connectRedis({ url: config.redis.url, keyPrefix: config.redis.keyPrefix }, log)
    : null;
  if (redis) {
    onClose(async () => {
      await redis.close();
    });
  }
  const sessions = createSessionService(repos, now, redis && redisBroadcast(redis, SESSION_ENDINGS));
  await sessions.start();
  const captcha = createCaptchaService(repos, now);
  const signInLimiter = createSignInLimiter(repos, now, metrics);
  const requestLimiter = createRequestLimiter({
    now,
    shared: redis && createRedisStore(redis.client, redis.keyPrefix),
    log,
    metrics,
  });
  const passwords = deps.passwords ?? createPasswordHasher();
  const accounts = createAccountService({ repos, config, captcha, signInLimiter, passwords, now, log });
  const narrator = deps.narrator ?? createNarratorProvider(config.llm);
  const narrators = createNarratorService({
    catalogue: config.narrators,
    defaultProvider: narrator,
    users: repos.users,
  });
  const flush = () => deps.database.flush();
  const preferences = createPreferencesService({ repos, narrators, now });
  const drain = deps.drain ?? createDrain();
  const allowance = createAllowance({
    repos,
    limiter: requestLimiter,
    config: allowanceConfig(config),
    now,
    log,
    metrics,
    drain,
  });
  const quotas = createQuotaService({
    repos,
    limits: config.quotas,
    monthlyTokenLimit: config.userMonthlyTokenLimit,
    now,
  });
  const images = createImageService({
    repos,
    config: config.image,
    painter: deps.painter === undefined ? createImageProvider(config.image) : deps.painter,
    styleNarrator: async (userId, storyId) =>
      narrators.provider(await narrators.forTaskOf('style', () => repos.stories.findOwned(storyId, userId))),
    allowance,
    preferences: deps.preferences ?? preferences,
    now,
    flush,
    log,
    metrics,
  });
  const embeddings = createEmbeddingsProvider(config.embeddings);
  const vectors = embeddings
    ? createVectorRecall({ repos, provider: embeddings, allowance, config: config.embeddings, now, log })
    : undefined;
  const memoryBank = createMemoryBank({ repos, log, vectors, indexing: config.llm.recallTokens > 0 });
  const storyBible = createStoryBible({ repos, now, log });
  const turns = createTurnService({
    narrators,
    repos,
    memoryBank,
    storyBible,
    vectors,
    llm: config.llm,
    allowance,
    preferences: deps.preferences ?? preferences,
    now,
    flush,
    log,
    quotas,
    drain,
    illustrate: images.illustrateReply,
    metrics,
  });
  const stories = createStoryService({
    narrators,
    images,
    storyJson: createStoryJson(repos),
    repos,
    allowance,
    now,
    flush,
    log,
  });
  const storyVersions = createStoryVersionService({
    repos,
    stateOf: (storyId, replying) => stories.stateOf(storyId, replying),
    pictureOf: async (messageId) => {
      const picture = images.enabled ? await repos.images.findByMessage(messageId) : null;
      return picture?.status === 'ready' && picture.assetHash ? imageUrl(picture.assetHash) : undefined;
    },
    now,
    flush,
    quotas,
    memoryBank,
  });
  const admin = createAdminService({
    repos,
    llm: config.llm,
    catalogue: config.narrators,
    image: config.image,
    monthlyTokenLimit: config.userMonthlyTokenLimit,
    now,
  });
  const bookmarks = createBookmarkService({ repos, now });
  const scenarios = createScenarioService({
    repos,
    narrators,
    limiter: requestLimiter,
    limits: config.scenarios,
    now,
  });
  const sharing = createSharingService({
    repos,
    images,
    now,
    shareMaxBytes: config.shareMaxBytes,
    publishShares: (source) =>
      createSharedStoryCache({
        ...source,
        now,
        compress: config.compression,
        // Every snapshot sharing can make is kept, so no read of one serialises or compresses it again.
        maxBytes: sharedCacheBytes(config.shareMaxBytes),
        keepUpTo: config.shareMaxBytes,
      }),
    revocations: redis && redisBroadcast(redis, SHARES_STOPPED),
    quotas,
  });
  await sharing.start();
  // One worker thread reads every imported file (story files and story cards' files), off the event loop.
  const importReader = createImportReader();
  onClose(() => importReader.close());
  const storyFiles = createStoryFileService({
    repos,
    reader: importReader,
    picturesEnabled: images.enabled,
    limiter: requestLimiter,
    quotas,
    maxCards: config.storyMaxCards,
    now,
    narrators,
    afterImport: (storyId) => memoryBank.index(storyId, 'all'),
  });
  const storyCards = createStoryCardService({
    repos,
    reader: importReader,
    now,
    maxCards: config.storyMaxCards,
    quotas,
    limiter: requestLimiter,
    prices: config.llm.prices,
  });
  const library = createLibraryService({
    repos,
    picturesEnabled: images.enabled,
    sharesGone: (shareIds) => sharing.forget(shareIds),
    now,
  });
  const myData = createMyDataService({
    repos,
    accounts,
    preferences,
    bookmarks,
    storyFiles,
    library,
    sessions,
    limiter: requestLimiter,
    passwords,
    now,
  });
  const speech = createSpeechService({
    repos,
    tts: deps.tts === undefined ? createTtsProvider(config.tts) : deps.tts,
    stt: deps.stt === undefined ? createSttProvider(config.stt) : deps.stt,
    ttsConfig: config.tts,
    sttConfig: config.stt,
    allowance,
    now,
    flush,
    log,
  });
  // Pictures are painted by durable jobs in the database; this instance runs its share of them.
  // Abandoned jobs are looked for at least as often as they may be abandoned (IMAGE_JOB_GRACE_SECONDS).
  const grace = config.imageJobGraceSeconds;
  const jobQueue = images.enabled
    ? await startJobQueue(deps.database, log, { maintenanceSeconds: Math.min(30, grace), ...deps.jobs })
    : null;
  if (jobQueue) await images.startWorkers(jobQueue, { sole: deps.database.kind === 'pglite', graceSeconds: grace });
  // The drain stops this instance taking picture jobs; the running ones may finish within it.
  drain.whenDraining(async () => {
    images.stopWorkers();
    await jobQueue?.stop(config.shutdownDrainMs);
  });
  // Shutdown waits for memory folds in flight, so their summaries are not thrown away, and lets
  // running pictures finish (a picture cut short is retried by the next start).
  onClose(async () => {
    images.stopWorkers();
    await Promise.all([turns.idle(), jobQueue?.stop()]);
  });

  return {
    accounts,
    sessions,
    captcha,
    /** Per-IP request limits (captcha, shared reads), counted in memory or Redis, not in the database. */
    requestLimiter,
    turns,
    stories,
    storyVersions,
    library,
    storyFiles,
    /** The story cards panel and the context records of replies. */
    storyCards,
    /** The story bible in the memory panel. */
    storyBible,
    myData,
    admin,
    bookmarks,
    /** Scenarios: drafts made, edited and published by their authors, read by anyone once published. */
    scenarios,
    sharing,
    preferences,
    /** The operator's narrators: which a caller may pick, which writes a story or a side call. */
    narrators,
    images,
    speech,
    /** What one account may keep (stories, shares, stored text), and each quota's use. */
    quotas,
    /** Makes committed writes durable (PGlite WAL fsync) for handlers that write under a GET. */
    flush,
    /** The SIGTERM drain: /readyz answers 503 once it has begun. */
    drain,
    /** This app's Prometheus registry, served at GET /metrics. */
    metrics,
  };
}
