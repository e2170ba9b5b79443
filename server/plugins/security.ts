// Security headers and the CSRF defence. Every write to /api must be JSON: a cross-site page
// cannot send a JSON content type without a CORS preflight (which this server never grants),
// and the session cookie is SameSite=Lax, so a forged form or fetch from another site fails.
// A route may name other body types in its config (the voice recording takes audio/*): those are
// not CORS-safelisted either (only form, multipart and text/plain are), so the same defence holds.
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import { AppError, MESSAGES } from '@server/errors';
import { ERROR_CODES } from '@shared/schemas/common';

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Body types this write accepts instead of JSON, and the 415 message for any other. */
    bodyTypes?: { types: readonly string[]; message: string };
    /** The 413 message when the body is over the route's bodyLimit. */
    bodyTooLargeMessage?: string;
  }
}

export async function registerSecurity(app: FastifyInstance): Promise<void> {
  await app.register(helmet, {
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
  });

  app.addHook('onRequest', async (request) => {
    if (!WRITE_METHODS.has(request.method) || !request.url.startsWith('/api/')) return;
    const type = (request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    const allowed = request.routeOptions.config.bodyTypes;
    if (allowed ? !allowed.types.includes(type) : type !== 'application/json') {
      throw new AppError(415, ERROR_CODES.unsupportedMediaType, allowed?.message ?? MESSAGES.unsupportedMediaType);
    }
  });

  // Browsers must not cache API answers carrying account data.
  app.addHook('onSend', async (request, reply) => {
    if (request.url.startsWith('/api/') && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
  });
}
