// Security headers and the CSRF defence. Every write to /api must be JSON: a cross-site page
// cannot send a JSON content type without a CORS preflight (which this server never grants),
// and the session cookie is SameSite=Lax, so a forged form or fetch from another site fails.
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import { AppError, MESSAGES } from '@server/errors';
import { ERROR_CODES } from '@shared/schemas/common';

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

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
    if (type !== 'application/json') {
      throw new AppError(415, ERROR_CODES.unsupportedMediaType, MESSAGES.unsupportedMediaType);
    }
  });

  // Browsers must not cache API answers carrying account data.
  app.addHook('onSend', async (request, reply) => {
    if (request.url.startsWith('/api/') && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
  });
}
