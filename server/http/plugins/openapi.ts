// The API's description, built from the routes themselves: GET /api/openapi.json is an OpenAPI 3.1
// document that @fastify/swagger assembles from every route's zod schemas (fastify-type-provider-zod's
// jsonSchemaTransform, JSON Schema draft 2020-12), and GET /api/docs is a reference page over it
// (@fastify/swagger-ui). Nothing here is written by hand but the words around the schemas.
//
// Registered before the routes, so @fastify/swagger's onRoute hook sees them all. The transform below
// only shapes the document: it hands @fastify/swagger new objects and never touches a route's own
// schema, so validation and serialisation stay exactly as the routes declare them (error bodies are
// described here, in the document, and never as 4xx response schemas on the routes, which would make
// Fastify serialise errors and answer 500 on a mismatch).
//
// In the document: every /api route, HEAD included (Fastify answers HEAD for every GET; the spec's
// session check is HEAD /api/user), and the /healthz and /readyz probes. Left out: the reference
// page's own files (/api/docs/*), the built client's files and the SPA's pages (/shared/:shareId),
// which are for browsers, not API calls, and any other route outside /api (an operator's /metrics).
//
// For client generators, every operation has an id made from its method and path (operationIdFor),
// the summary its route declares (the probes' are here), and its security requirement, `[]` for a
// public call; the servers entry is this origin. The document passes Redocly's recommended rules
// (redocly.yaml, openapi-clients.api.test.ts), and `npm run api:types` turns it into shared/api's types.
//
// The page's files come from our origin (the package's own copy of Swagger UI), every script an
// external file (Swagger UI's start-up script included), under a CSP of their own that allows no
// inline script (@fastify/swagger-ui's staticCSP, set as the answer leaves): it replaces the /api
// answers' `default-src 'none'` (plugins/security.ts) on these routes only. Neither answer reads
// the session or holds anything but schemas.
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifySchema, RouteOptions } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorSchema } from '@shared/schemas/common';
import type { AppConfig } from '@server/kernel/config';
import { version } from '../../../package.json';
import { registerCompression } from './compression';
import { SESSION_COOKIE } from './session';

export const OPENAPI_PATH = '/api/openapi.json';
export const DOCS_PREFIX = '/api/docs';
export const SESSION_SCHEME = 'sessionCookie';

/**
 * Routes that read the session but answer visitors too (signing in, the sign-up form's helpers, the
 * feature flags, the narrators on offer, the preferences' defaults): the cookie is optional there. Every other route that
 * reads the session requires it (401 without). HEAD follows its GET.
 */
export const SESSION_OPTIONAL = new Set([
  'POST /api/register',
  'POST /api/login',
  'POST /api/logout',
  'GET /api/check-username',
  'GET /api/captcha',
  'GET /api/features',
  'GET /api/narrators',
  'GET /api/scenarios',
  'GET /api/scenarios/{id}',
  'GET /api/preferences',
]);

/** The probes outside /api that the document describes too. */
const PROBES: Record<string, { summary: string; description: string }> = {
  '/healthz': { summary: 'Liveness probe', description: 'Liveness: the process is up.' },
  '/readyz': {
    summary: 'Readiness probe',
    description: 'Readiness: 200 while this server takes requests (its database answers), 503 otherwise.',
  },
};

/** The reference page's CSP: our own files only, no inline script, no framing. */
export const DOCS_CSP = [
  "default-src 'none'",
  "base-uri 'none'",
  "connect-src 'self'",
  "font-src 'self' data:",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "img-src 'self' data:",
  "object-src 'none'",
  "script-src 'self'",
  "script-src-attr 'none'",
  // Swagger UI sets style attributes as it renders, as the SPA's page allows too (HELMET_OPTIONS).
  "style-src 'self' 'unsafe-inline'",
].join('; ');

/** Swagger UI's own files: unchanged until the package is upgraded; revalidated by ETag after a day. */
const DOCS_ASSET_CACHE = 'public, max-age=86400';

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const isApiPath = (url: string) => url === '/api' || url.startsWith('/api/');

// The one error body (plugins/errors.ts), as a component the error responses point at.
const { $schema: _dialect, ...apiErrorJson } = z.toJSONSchema(apiErrorSchema, {
  target: 'draft-2020-12',
  io: 'output',
});
const API_ERROR_REF = '#/components/schemas/ApiError';

type Responses = Record<string, unknown>;

/** An error answer's entry in a route's responses: the ApiError body, or no body for HEAD. */
function errorResponse(description: string, head: boolean) {
  return head ? { description, type: 'null' } : { description, $ref: API_ERROR_REF };
}

/** The error answers a route can give, from what it declares (see plugins/errors.ts and security.ts). */
function errorResponses(schema: FastifySchema, method: string, session: Session): Responses {
  const head = method === 'HEAD';
  const write = WRITE_METHODS.has(method);
  const errors: Responses = {};
  if (schema.body || schema.querystring || schema.params || write) {
    errors['400'] = errorResponse(
      'The request is not valid: `VALIDATION_ERROR` with `details` per field, or `BAD_JSON`.',
      head,
    );
  }
  if (session === 'required') {
    errors['401'] = errorResponse('Not signed in, or the session has ended: `UNAUTHENTICATED`.', head);
  }
  if (schema.params) errors['404'] = errorResponse("Not found, or not this player's: `NOT_FOUND`.", head);
  if (write) {
    errors['413'] = errorResponse('The body is over the size limit: `PAYLOAD_TOO_LARGE`.', head);
    errors['415'] = errorResponse(
      'The body is not JSON (nor a type this route names): `UNSUPPORTED_MEDIA_TYPE`.',
      head,
    );
  }
  errors['4XX'] = errorResponse(
    "Another refusal (403, 409, 429 with Retry-After, ...): the body's `code` says which.",
    head,
  );
  errors['5XX'] = errorResponse(
    "A failure on our side or the narrator's: `INTERNAL_ERROR`, `NARRATOR_UNAVAILABLE`, `NARRATOR_TIMEOUT`, ...",
    head,
  );
  return errors;
}

const SUCCESS_WORDS: Record<string, string> = {
  '200': 'Success',
  '201': 'Created',
  '202': 'Accepted: still at work',
  '204': 'No content',
  '304': 'Not modified (the ETag matched)',
};

/** Words for the answers the routes declare (@fastify/swagger would say 'Default Response'). */
function described(responses: Responses): Responses {
  return Object.fromEntries(
    Object.entries(responses).map(([status, response]) => {
      const entry = response as Record<string, unknown>;
      if (typeof entry.description === 'string' || typeof entry['x-response-description'] === 'string')
        return [status, entry];
      return [status, { ...entry, 'x-response-description': SUCCESS_WORDS[status] ?? 'Success' }];
    }),
  );
}

/** A HEAD answer has the GET's status and headers, never a body. */
function withoutBodies(responses: Responses): Responses {
  return Object.fromEntries(
    Object.entries(responses).map(([status, response]) => {
      const description = (response as { description?: unknown }).description;
      const words =
        typeof description === 'string' ? description : (response as Record<string, unknown>)['x-response-description'];
      return [status, { description: typeof words === 'string' ? words : 'Success', type: 'null' }];
    }),
  );
}

type Session = 'none' | 'optional' | 'required';

/** The tag a route is listed under on the reference page: the first segment after /api. */
function tagFor(url: string): string {
  if (!isApiPath(url)) return 'operations';
  const first = url.split('/')[2] ?? '';
  if (['register', 'login', 'logout', 'check-username', 'captcha'].includes(first)) return 'sign-in';
  if (['user', 'settings', 'update-email'].includes(first)) return 'account';
  if (first === 'stories') return 'story';
  if (first === 'openapi.json') return 'docs';
  return first;
}

/**
 * The operation's id, derived from its method and path: camelCase, `/api` left out (every call but the
 * probes has it), a path parameter as `By` and its name. `GET /api/story/{storyId}/cards` is
 * `getStoryByStoryIdCards`. Unique as the route is, stable while the route is, and nothing to keep
 * by hand: a client generator's names change only when the call itself does.
 */
function operationIdFor(method: string, url: string): string {
  const words = url
    .replace(/^\/api(?=\/|$)/, '')
    .split('/')
    .filter(Boolean)
    .flatMap((segment) => {
      const param = /^[:{](\w+)\}?$/.exec(segment);
      return param ? ['by', param[1]] : segment.split(/[^A-Za-z0-9]+/).filter(Boolean);
    });
  const capitalised = words.map((word) => word[0].toUpperCase() + word.slice(1));
  return method.toLowerCase() + capitalised.join('');
}

/** Every operation says what it takes: the cookie, the cookie or nothing, or nothing at all ([]). */
function securityFor(session: Session): Array<Record<string, string[]>> {
  if (session === 'required') return [{ [SESSION_SCHEME]: [] }];
  if (session === 'optional') return [{}, { [SESSION_SCHEME]: [] }];
  return [];
}

function methodsOf(route: RouteOptions): string[] {
  return (Array.isArray(route.method) ? route.method : [route.method]).map(String);
}

/**
 * The document's transform: the zod schemas to JSON Schema, then the session requirement, the error
 * answers and, for HEAD, the same answers without bodies. Works on copies only.
 */
export function openApiTransform(sessionRoutes: ReadonlySet<string>): typeof jsonSchemaTransform {
  return (document) => {
    const { url, route } = document;
    if (!isApiPath(url) && !(url in PROBES)) return { schema: { hide: true } as FastifySchema, url };
    const transformed = jsonSchemaTransform(document);
    const schema: FastifySchema & Record<string, unknown> = { ...(transformed.schema ?? {}) };
    if (schema.hide) return { schema, url };
    const [method] = methodsOf(route);
    const key = `${method === 'HEAD' ? 'GET' : method} ${url}`;
    const session: Session = !sessionRoutes.has(`${method} ${url}`)
      ? 'none'
      : SESSION_OPTIONAL.has(key)
        ? 'optional'
        : 'required';

    schema.operationId = operationIdFor(method, url);
    schema.tags ??= [tagFor(url)];
    if (url in PROBES) {
      schema.summary ??= PROBES[url].summary;
      schema.description ??= PROBES[url].description;
    }
    if (url === OPENAPI_PATH) schema.description ??= 'This document: the API as OpenAPI 3.1.';
    schema.security = securityFor(session);

    // A route without a response schema answers something no JSON schema describes (a file, a
    // picture, audio, an event stream, the probes' small objects): said so, with no body schema.
    let responses: Responses = schema.response
      ? described(schema.response as Responses)
      : { 200: { description: 'Success (a body no JSON schema here describes).', type: 'null' } };
    if (method === 'HEAD') {
      responses = withoutBodies(responses);
      // A HEAD route carries its GET's schema: the GET's summary, said of the headers only.
      schema.summary =
        url === '/api/user'
          ? 'Session check: 200 while signed in, 401 otherwise (no body)'
          : `${schema.summary ?? 'The GET'}: status and headers only`;
    }
    if (isApiPath(url)) {
      for (const [status, response] of Object.entries(errorResponses(schema, method, session))) {
        responses[status] ??= response;
      }
    }
    schema.response = responses;
    return { schema, url };
  };
}

export interface OpenApiOptions {
  /** COMPRESSION: the reference page's files and the document are compressed like other answers. */
  compression: AppConfig['compression'];
  /** The app's own logo (the built client's SVG), in the reference page's top bar instead of Fastify's. */
  logoSvg?: Buffer;
}

/**
 * Registers the document and the reference page. Call before any route is declared: routes declared
 * earlier are missing from the document.
 */
export async function registerOpenApi(app: FastifyInstance, options: OpenApiOptions): Promise<void> {
  // Which routes read the session: those declared where the session plugin decorated the request.
  const sessionRoutes = new Set<string>();
  app.addHook('onRoute', function (this: FastifyInstance, route) {
    if (!this.hasRequestDecorator('session')) return;
    for (const method of methodsOf(route)) sessionRoutes.add(`${method} ${route.url}`);
  });

  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Taleweaver API',
        version,
        description:
          'The JSON API behind Taleweaver. Errors answer `{message, code}` (plus `details` per field for ' +
          'validation). Writes must be JSON (`Content-Type: application/json`).',
      },
      // Relative: the origin that served this document, wherever the operator runs it.
      servers: [{ url: '/', description: 'This server' }],
      components: {
        securitySchemes: {
          [SESSION_SCHEME]: {
            type: 'apiKey',
            in: 'cookie',
            name: SESSION_COOKIE,
            description: 'The session cookie set by sign-up and sign-in (HttpOnly, SameSite=Lax).',
          },
        },
        schemas: { ApiError: apiErrorJson as Record<string, unknown> },
      },
    },
    exposeHeadRoutes: true,
    transform: openApiTransform(sessionRoutes),
  });

  // The document and the page: no session, quiet in the log, compressed, cacheable.
  await app.register(
    async (docs) => {
      await registerCompression(docs, options.compression);
      docs.addHook('onSend', (request, reply, payload, done) => {
        const path = request.routeOptions.url ?? '';
        // The start-up script is made from our options, not a file of the package: revalidated like the page.
        const asset =
          reply.statusCode < 400 &&
          path.startsWith(`${DOCS_PREFIX}/static/`) &&
          !path.endsWith('/swagger-initializer.js');
        reply.header('cache-control', asset ? DOCS_ASSET_CACHE : 'no-cache');
        done(null, payload);
      });
      // Built once, on the first request (the routes are all known by then), and sent as that text.
      let text: string | undefined;
      docs.get(OPENAPI_PATH, { schema: { summary: 'The OpenAPI document' } }, async (_request, reply) =>
        reply.type('application/json; charset=utf-8').send((text ??= JSON.stringify(app.swagger()))),
      );
      await docs.register(fastifySwaggerUi, {
        routePrefix: DOCS_PREFIX,
        staticCSP: DOCS_CSP,
        uiConfig: { deepLinking: true },
        ...(options.logoSvg && { logo: { type: 'image/svg+xml', content: options.logoSvg, href: '/' } }),
        theme: { title: 'Taleweaver API' },
      });
    },
    { logLevel: 'warn' },
  );
}
