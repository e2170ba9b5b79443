// Security headers and the CSRF defence. Every write to /api must be JSON: a cross-site page
// cannot send a JSON content type without a CORS preflight (which this server never grants),
// and the session cookie is SameSite=Lax, so a forged form or fetch from another site fails.
// A route may name other body types in its config (the voice recording takes audio/*): those are
// not CORS-safelisted either (only form, multipart and text/plain are), so the same defence holds.
//
// "A write to /api" means a request the router matched to a route declared under /api, never a
// raw URL that starts with /api/: the router decodes percent-escapes (`/%61pi/logout` reaches
// /api/logout) and an absolute-form request line (`POST http://host/api/logout`) reaches the
// route too, and both slipped past a prefix test. Routes are marked once, when they are declared
// (config.api, an onRoute hook); the session plugin reads the same mark.
//
// Pages and files get helmet's headers; /api answers a shorter set (API_HEADERS). Helmet's headers
// are the same on every answer (no CSP nonces here), so they are worked out once at
// start-up, by running helmet's middleware (the copy @fastify/helmet uses) against a recording
// response, and set from that list on each request. @fastify/helmet builds the middleware anew for
// every request, parsing the whole policy each time: a tenth of the CPU of a public shared-story read.
import { createRequire } from 'node:module';
import type { FastifyHelmetOptions } from '@fastify/helmet';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DomainError, MESSAGES } from '@server/kernel/errors';
import { ERROR_CODES } from '@shared/schemas/common';

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set on every route declared under /api (see markApiRoutes); hooks key on it, not on request.url. */
    api?: boolean;
    /** Body types this write accepts instead of JSON, and the 415 message for any other. */
    bodyTypes?: { types: readonly string[]; message: string };
    /** The 413 message when the body is over the route's bodyLimit. */
    bodyTooLargeMessage?: string;
  }
}

type HeaderRecorder = { setHeader(name: string, value: string): void; removeHeader(name: string): void };
type HelmetMiddleware = (req: object, res: HeaderRecorder, next: (error?: unknown) => void) => void;
const helmet = createRequire(createRequire(import.meta.url).resolve('@fastify/helmet'))('helmet') as (
  options: object,
) => HelmetMiddleware;

/** The headers helmet sets with these options, names in lower case. */
export function helmetHeaders(options: object): Record<string, string> {
  const headers: Record<string, string> = {};
  helmet(options)(
    {},
    { setHeader: (name, value) => (headers[name.toLowerCase()] = value), removeHeader: () => undefined },
    (error) => {
      if (error) throw error;
    },
  );
  return headers;
}

/** Helmet's defaults but for a policy of our own, no cross-origin embedder policy and no HSTS. */
export const HELMET_OPTIONS: FastifyHelmetOptions = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:'],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      mediaSrc: ["'self'", 'data:', 'blob:'],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
  },
  referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  crossOriginEmbedderPolicy: false,
  // HSTS only makes sense behind TLS, which the operator's proxy decides; it sends its own.
  strictTransportSecurity: false,
};

/**
 * What an /api answer carries instead (JSON, pictures, audio, the users CSV; never a page): the
 * headers that matter for a response no browser renders as a document, as OWASP's REST cheat sheet
 * lists them. A policy that allows nothing and no framing replaces the page's policy; the headers
 * that only steer documents (opener and origin-agent isolation, DNS prefetch, the XSS auditor, IE's
 * download prompt) are left off. Helmet's full set was 813 bytes on every answer, and writing it
 * cost a public shared-story read about 18 % of its throughput.
 */
export const API_HEADERS: Record<string, string> = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'cross-origin-resource-policy': 'same-origin',
  'x-permitted-cross-domain-policies': 'none',
};

/** Why a write's body type is refused (415), or undefined when it is one the route takes. */
function refusedBodyType(request: FastifyRequest): DomainError | undefined {
  const type = (request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  const allowed = request.routeOptions.config.bodyTypes;
  if (allowed ? allowed.types.includes(type) : type === 'application/json') return undefined;
  return new DomainError(
    'invalid',
    ERROR_CODES.unsupportedMediaType,
    allowed?.message ?? MESSAGES.unsupportedMediaType,
  );
}

const isApiPath = (path: string) => path === '/api' || path.startsWith('/api/');

/** Marks every route declared under /api from now on (its declared path, prefix included), in this scope and those below. */
export function markApiRoutes(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    if (isApiPath(route.url)) route.config = { ...route.config, api: true };
  });
}

/** Whether the route this request matched is an /api one. */
export function isApiRoute(request: FastifyRequest): boolean {
  return request.routeOptions.config.api === true;
}

// The hooks run on every request, a public read included: callback-style, so that the common case
// (nothing to refuse, nothing to wait for) costs no promise.
export async function registerSecurity(app: FastifyInstance): Promise<void> {
  const headers = helmetHeaders(HELMET_OPTIONS);
  markApiRoutes(app);
  app.addHook('onRequest', (request, reply, done) => {
    const api = isApiRoute(request);
    // An unmatched /api path is answered with a JSON 404 (plugins/errors.ts): API headers, nothing to check.
    reply.headers(api || (request.is404 && isApiPath(request.url.split('?')[0])) ? API_HEADERS : headers);
    done(api && WRITE_METHODS.has(request.method) ? refusedBodyType(request) : undefined);
  });

  // Browsers must not cache API answers carrying account data.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (isApiRoute(request) && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    done(null, payload);
  });
}
