// buildApp(config, deps) assembles the Fastify instance without listening: the services that
// compose.ts builds over the database it is given, with the HTTP plugins and routes around them.
// main.ts listens; tests call app.inject().
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import cookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { loadTokenCounter } from './ai/llm/tokenizer';
import { composeServices, type AppDeps } from './compose';
import { registerCompression, staticCompressionOptions } from './http/plugins/compression';
import { registerErrorHandling, routerErrorHandler } from './http/plugins/errors';
import { utf8SerializerCompiler } from './http/plugins/json-bytes';
import { lazyChildLoggerFactory } from './http/plugins/lazy-logger';
import { nulTextError, refuseNulQuery } from './http/plugins/nul-text';
import { jsonNulPath } from './kernel/nul-text';
import { registerOpenApi } from './http/plugins/openapi';
import { OneLinePerRequest, registerRequestIds, requestIdGenerator } from './http/plugins/request-log';
import { registerMetrics } from './http/plugins/metrics';
import { registerSecurity } from './http/plugins/security';
import { createSessionCookies, registerSession } from './http/plugins/session';
import { adminRoutes } from './http/routes/admin';
import { authRoutes } from './http/routes/auth';
import { bookmarkRoutes } from './http/routes/bookmarks';
import { scenarioRoutes } from './http/routes/scenarios';
import type { RouteContext } from './http/routes/context';
import { featuresRoutes } from './http/routes/features';
import { narratorRoutes } from './http/routes/narrators';
import { healthRoutes } from './http/routes/health';
import { imageRoutes } from './http/routes/images';
import { preferencesRoutes } from './http/routes/preferences';
import { createPublicBaseUrl } from './http/routes/public-url';
import { publicSharingRoutes, sharingRoutes } from './http/routes/sharing';
import { sharedPageRoute } from './http/routes/sharing/page';
import { speechRoutes } from './http/routes/speech';
import { storyRoutes } from './http/routes/story';
import { libraryRoutes } from './http/routes/story/library';
import { storyBibleRoutes } from './http/routes/story/bible';
import { storyCardRoutes } from './http/routes/story/cards';
import { storyVersionRoutes } from './http/routes/story/versions';
import { userRoutes } from './http/routes/user';
import type { TurnService } from './domains/story/turns';
import type { AppConfig } from './kernel/config';

export type { AppDeps };

declare module 'fastify' {
  interface FastifyInstance {
    /** The story-turn service, exposed so tests and benchmarks can wait for background memory folds. */
    turns: TurnService;
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
  const options: FastifyServerOptions = {
    logger: deps.logger ?? { level: config.logLevel, redact: LOG_REDACT },
    bodyLimit: BODY_LIMIT_BYTES,
    childLoggerFactory: lazyChildLoggerFactory,
    genReqId: requestIdGenerator(config.trustProxy),
    // One line a request, written when the answer has gone.
    logController: new OneLinePerRequest(),
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
    // U+0000 cannot be stored in PostgreSQL text: refused here for every body (kernel/nul-text.ts).
    if (jsonNulPath(text, parsed) !== null) return done(nulTextError(), undefined);
    done(null, parsed);
  });

  const services = await composeServices(config, deps, app.log, (hook) => {
    app.addHook('onClose', async () => {
      await hook();
    });
  });
  const sessionCookies = createSessionCookies(config);
  // Absolute URLs never echo an untrusted Host header; warns once when it had to leave them out.
  const publicBaseUrl = createPublicBaseUrl(config, app.log);
  const ctx: RouteContext = { ...services, config, sessionCookies, publicBaseUrl };
  app.decorate('turns', services.turns);
  // The tokenizer's tables hold the event loop 80-400 ms while they load: before the server
  // listens, not under its first requests (bench:abuse saw a 419 ms stall during parallel-starts
  // while the load ran unawaited).
  app.addHook('onReady', async () => {
    await loadTokenCounter();
  });
  const serveClient = config.serveClient && existsSync(join(config.clientDir, 'index.html'));
  registerErrorHandling(app, serveClient);
  registerRequestIds(app);
  await registerSecurity(app);
  // Every request timed by route template, and GET /metrics for this instance's scraper (not public).
  registerMetrics(app, services.metrics, { token: config.metricsToken, behindProxy: config.trustProxy !== false });
  const logoFile = join(config.clientDir, 'logo.svg');
  await registerOpenApi(app, {
    compression: config.compression,
    logoSvg: existsSync(logoFile) ? readFileSync(logoFile) : undefined,
  });

  // Public reads, the same for everyone: probes, shared snapshots and the built client's files
  // (precompressed by the build, their Content-Length and ETag true to the bytes sent). They sit
  // outside the account scope below and run none of its hooks: a popular shared link is read
  // thousands of times a second, and no session cookie can ride along on its public answer.
  await app.register(healthRoutes(deps.database, services.drain));
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
    registerSession(accountScope, services.sessions, sessionCookies);

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
    await accountScope.register(storyCardRoutes(ctx), { prefix: '/api' });
    await accountScope.register(storyBibleRoutes(ctx), { prefix: '/api' });
    await accountScope.register(storyVersionRoutes(ctx), { prefix: '/api' });
    await accountScope.register(adminRoutes(ctx), { prefix: '/api' });
    await accountScope.register(bookmarkRoutes(ctx), { prefix: '/api' });
    await accountScope.register(scenarioRoutes(ctx), { prefix: '/api' });
    await accountScope.register(sharingRoutes(ctx), { prefix: '/api' });
    await accountScope.register(preferencesRoutes(ctx), { prefix: '/api' });
    await accountScope.register(imageRoutes(ctx), { prefix: '/api' });
    await accountScope.register(featuresRoutes(ctx), { prefix: '/api' });
    await accountScope.register(narratorRoutes(ctx), { prefix: '/api' });
    await accountScope.register(speechRoutes(ctx), { prefix: '/api' });
    // The shared story's page (link-preview tags in the SPA's HTML): compressed like other answers.
    if (serveClient) await accountScope.register(sharedPageRoute(ctx));
  });
  return app;
}
