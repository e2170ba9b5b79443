// buildApp(config, deps) assembles the Fastify instance without listening: plugins, services and
// routes over the database it is given. main.ts listens; tests call app.inject().
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import cookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { createImageProvider } from './ai/image/registry';
import type { ImageProvider } from './ai/image/types';
import { createNarratorProvider } from './ai/llm/registry';
import { createSttProvider, createTtsProvider } from './ai/speech/registry';
import type { SttProvider, TtsProvider } from './ai/speech/types';
import { loadTokenCounter } from './ai/llm/tokenizer';
import type { NarratorProvider } from './ai/llm/types';
import type { AppConfig } from './kernel/config/index';
import type { Database } from './db/client';
import { createRepositories } from './db/repositories';
import { utf8SerializerCompiler } from './http/plugins/json-bytes';
import { lazyChildLoggerFactory } from './http/plugins/lazy-logger';
import { registerCompression, staticCompressionOptions } from './http/plugins/compression';
import { registerErrorHandling, routerErrorHandler } from './http/plugins/errors';
import { connectRedis, redisBroadcast } from './http/plugins/redis';
import { jsonHoldsNul, nulTextError, refuseNulQuery } from './http/plugins/nul-text';
import { registerSecurity } from './http/plugins/security';
import { createSessionCookies, registerSession } from './http/plugins/session';
import { adminRoutes } from './http/routes/admin';
import { authRoutes } from './http/routes/auth';
import { bookmarkRoutes } from './http/routes/bookmarks';
import type { RouteContext } from './http/routes/context';
import { createPublicBaseUrl } from './http/routes/public-url';
import { featuresRoutes } from './http/routes/features';
import { healthRoutes } from './http/routes/health';
import { imageRoutes } from './http/routes/images';
import { libraryRoutes } from './http/routes/story/library';
import { storyVersionRoutes } from './http/routes/story/versions';
import { startJobQueue, type QueueOptions } from './jobs/queue';
import { preferencesRoutes } from './http/routes/preferences';
import { publicSharingRoutes, sharingRoutes } from './http/routes/sharing';
import { sharedPageRoute } from './http/routes/sharing/page';
import { speechRoutes } from './http/routes/speech';
import { storyRoutes } from './http/routes/story';
import { userRoutes } from './http/routes/user';
import { createAccountService } from './domains/account/accounts';
import { createAdminService } from './domains/admin/admin';
import { allowanceConfig, createAllowance } from './domains/limits/allowance';
import { createBookmarkService } from './domains/bookmarks/bookmarks';
import { createCaptchaService } from './domains/account/captcha';
import { createImageService, imageUrl } from './domains/images';
import { createLibraryService } from './domains/story/library';
import { createStoryVersionService } from './domains/story/versions';
import { createMyDataService } from './domains/account/my-data';
import { createNarrationService, type NarrationService } from './domains/story/turns';
import { createPreferencesService, type PreferencesSource } from './domains/preferences/preferences';
import { createQuotaService } from './domains/limits/quotas';
import { createRateLimiter } from './domains/limits/sign-in-limits';
import { createRedisStore, createRequestLimiter } from './domains/limits/request-limits';
import { createSessionService, SESSION_ENDINGS } from './domains/account/sessions';
import { createSharingService, SHARES_STOPPED } from './domains/sharing/sharing';
import { createSpeechService } from './domains/speech/speech';
import { createStoryService } from './domains/story/reads';
import { createStoryFileReader } from './domains/story/files/story-file-reader';
import { createStoryFileService } from './domains/story/files/story-files';

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
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The story-turn service, exposed so tests and benchmarks can wait for background memory folds. */
    narration: NarrationService;
  }
}

export const BODY_LIMIT_BYTES = 64 * 1024;

/** Paths and fields pino must never print. */
export const LOG_REDACT = [
  'req.headers.cookie',
  'req.headers.authorization',
  'res.headers["set-cookie"]',
  '*.password',
  '*.currentPassword',
  '*.newPassword',
  '*.passwordHash',
  '*.token',
  '*.apiKey',
  'req.headers["x-api-key"]',
];

function trustHops(hops: number) {
  return (_address: string, hop: number) => hop < hops;
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export async function buildApp(config: AppConfig, deps: AppDeps): Promise<FastifyInstance> {
  const now = deps.now ?? (() => new Date());
  const options: FastifyServerOptions = {
    logger: deps.logger ?? { level: config.logLevel, redact: LOG_REDACT },
    bodyLimit: BODY_LIMIT_BYTES,
    childLoggerFactory: lazyChildLoggerFactory,
    // A hop count trusts that many proxies in front of us, as proxy-addr does.
    trustProxy: typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
    frameworkErrors: routerErrorHandler,
  };
  const app = Fastify(options).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(utf8SerializerCompiler);

  // Writes with an empty JSON body (logout) parse as an empty object rather than failing.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, {});
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      const error = Object.assign(new SyntaxError('bad json'), { statusCode: 400 });
      return done(error, undefined);
    }
    // U+0000 cannot be stored in PostgreSQL text: refused here for every body (plugins/nul-text.ts).
    if (jsonHoldsNul(text, parsed)) return done(nulTextError(), undefined);
    done(null, parsed);
  });

  const repos = createRepositories(deps.database.db);
  // Every limit but logins' and registrations' is counted off the database: in memory, or in Redis
  // when instances must agree; Redis also tells the instances of ended sessions and stopped shares.
  const redis = config.redis.url
    ? await connectRedis({ url: config.redis.url, keyPrefix: config.redis.keyPrefix }, app.log)
    : null;
  if (redis) {
    app.addHook('onClose', async () => {
      await redis.close();
    });
  }
  const sessions = createSessionService(repos, now, redis && redisBroadcast(redis, SESSION_ENDINGS));
  await sessions.start();
  const captcha = createCaptchaService(repos, now);
  const limiter = createRateLimiter(repos, now);
  const requestLimiter = createRequestLimiter({
    now,
    shared: redis && createRedisStore(redis.client, redis.keyPrefix),
    log: app.log,
  });
  const accounts = createAccountService({ repos, config, captcha, limiter, now, log: app.log });
  const sessionCookies = createSessionCookies(config);
  const narrator = deps.narrator ?? createNarratorProvider(config.llm);
  const serviceLog = app.log;
  const flush = () => deps.database.flush();
  const preferences = createPreferencesService({ repos, now });
  const allowance = createAllowance({
    repos,
    limiter: requestLimiter,
    config: allowanceConfig(config),
    now,
    log: serviceLog,
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
    narrator,
    allowance,
    preferences: deps.preferences ?? preferences,
    now,
    flush,
    log: serviceLog,
  });
  const narration = createNarrationService({
    repos,
    provider: narrator,
    llm: config.llm,
    allowance,
    preferences: deps.preferences ?? preferences,
    now,
    flush,
    log: serviceLog,
    quotas,
    illustrate: images.illustrateReply,
  });
  const stories = createStoryService({
    images,
    repos,
    provider: narrator,
    apiKey: config.llm.apiKey,
    allowance,
    now,
    flush,
    log: serviceLog,
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
  });
  const admin = createAdminService({
    repos,
    llm: config.llm,
    image: config.image,
    monthlyTokenLimit: config.userMonthlyTokenLimit,
    now,
  });
  const bookmarks = createBookmarkService({ repos, now });
  const sharing = createSharingService({
    repos,
    images,
    now,
    shareMaxBytes: config.shareMaxBytes,
    compress: config.compression,
    revocations: redis && redisBroadcast(redis, SHARES_STOPPED),
    quotas,
  });
  await sharing.start();
  const storyFileReader = createStoryFileReader();
  app.addHook('onClose', () => storyFileReader.close());
  const storyFiles = createStoryFileService({
    repos,
    reader: storyFileReader,
    picturesEnabled: images.enabled,
    limiter: requestLimiter,
    quotas,
    now,
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
    log: serviceLog,
  });
  // Absolute URLs never echo an untrusted Host header; warns once when it had to leave them out.
  const publicBaseUrl = createPublicBaseUrl(config, app.log);
  const ctx: RouteContext = {
    config,
    accounts,
    sessions,
    captcha,
    limiter: requestLimiter,
    sessionCookies,
    narration,
    stories,
    storyVersions,
    library,
    storyFiles,
    myData,
    admin,
    bookmarks,
    sharing,
    preferences,
    images,
    speech,
    quotas,
    flush,
    publicBaseUrl,
  };
  app.decorate('narration', narration);
  // The tokenizer's tables hold the event loop 80-400 ms while they load: before the server
  // listens, not under its first requests (bench:abuse saw a 419 ms stall during parallel-starts
  // while the load ran unawaited).
  app.addHook('onReady', async () => {
    await loadTokenCounter();
  });
  // Pictures are painted by durable jobs in the database; this instance runs its share of them.
  const jobQueue = images.enabled ? await startJobQueue(deps.database, serviceLog, deps.jobs) : null;
  if (jobQueue) await images.startWorkers(jobQueue, { sole: deps.database.kind === 'pglite' });
  // Shutdown waits for memory folds in flight, so their summaries are not thrown away, and lets
  // running pictures finish (a picture cut short is retried by the next start).
  app.addHook('onClose', async () => {
    images.stopWorkers();
    await Promise.all([narration.idle(), jobQueue?.stop()]);
  });

  const serveClient = config.serveClient && existsSync(join(config.clientDir, 'index.html'));
  registerErrorHandling(app, serveClient);
  await registerSecurity(app);

  // Public reads, the same for everyone: probes, shared snapshots and the built client's files
  // (precompressed by the build, their Content-Length and ETag true to the bytes sent). They sit
  // outside the account scope below and run none of its hooks: a popular shared link is read
  // thousands of times a second, and no session cookie can ride along on its public answer.
  await app.register(healthRoutes(deps.database));
  await app.register(publicSharingRoutes(ctx), { prefix: '/api' });
  if (serveClient) {
    await app.register(fastifyStatic, {
      root: config.clientDir,
      wildcard: false,
      ...staticCompressionOptions(config.compression),
      // Hashed assets never change; index.html must always be revalidated.
      setHeaders: (reply, path) => {
        reply.header(
          'cache-control',
          path.includes(join('assets', '')) ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  }

  // Everything that may read or write an account: cookies, the session, compression of JSON
  // answers, and a write acknowledged only once it is durable.
  await app.register(async (accountScope) => {
    // First, before the session is read: a query holding U+0000 (plugins/nul-text.ts).
    accountScope.addHook('onRequest', refuseNulQuery);
    await registerCompression(accountScope, config.compression);
    await accountScope.register(cookie);
    registerSession(accountScope, sessions, sessionCookies);

    // A write is acknowledged only once it is durable (PGlite WAL fsync; a no-op on PostgreSQL).
    // A streamed story turn flushes itself before its `done` or `error` event: waiting here would
    // hold back the first words by an fsync. GET generate-title writes too and flushes itself.
    accountScope.addHook('onSend', (request, reply, payload, done) => {
      if (
        !WRITE_METHODS.has(request.method) ||
        String(reply.getHeader('content-type') ?? '').startsWith('text/event-stream')
      )
        return done(null, payload);
      deps.database.flush().then(() => done(null, payload), done);
    });

    await accountScope.register(authRoutes(ctx), { prefix: '/api' });
    await accountScope.register(userRoutes(ctx), { prefix: '/api' });
    await accountScope.register(storyRoutes(ctx), { prefix: '/api' });
    await accountScope.register(libraryRoutes(ctx), { prefix: '/api' });
    await accountScope.register(storyVersionRoutes(ctx), { prefix: '/api' });
    await accountScope.register(adminRoutes(ctx), { prefix: '/api' });
    await accountScope.register(bookmarkRoutes(ctx), { prefix: '/api' });
    await accountScope.register(sharingRoutes(ctx), { prefix: '/api' });
    await accountScope.register(preferencesRoutes(ctx), { prefix: '/api' });
    await accountScope.register(imageRoutes(ctx), { prefix: '/api' });
    await accountScope.register(featuresRoutes(ctx), { prefix: '/api' });
    await accountScope.register(speechRoutes(ctx), { prefix: '/api' });
    // The shared story's page (link-preview tags in the SPA's HTML): compressed like other answers.
    if (serveClient) await accountScope.register(sharedPageRoute(ctx));
  });
  return app;
}
