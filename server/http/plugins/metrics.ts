// GET /metrics: this instance's Prometheus metrics (kernel/metrics.ts), and the hooks that time
// every request by its route template and count the story streams open. Not public: with
// METRICS_TOKEN the scraper sends `Authorization: Bearer <token>` (anything else is 401); without
// it only a caller on this host's loopback, with no proxy's forwarding header, is answered, and
// everyone else gets the API's 404, even where the built client answers unknown pages with itself.
// Behind a proxy (TRUST_PROXY set) there is no loopback caller to trust without a token: a proxy on
// the same host that forwards without adding its headers would look like one, so every caller gets
// the 404 until METRICS_TOKEN is set. Each instance is scraped directly, never
// through the load balancer (which would mix the instances' counts).
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, MESSAGES, unauthenticated } from '@server/kernel/errors';
import { ERROR_CODES } from '@shared/schemas/common';
import type { Metrics } from '@server/kernel/metrics';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);
/** Headers a proxy adds: a request carrying one came through something, so it is not the operator's own. */
const PROXY_HEADERS = ['x-forwarded-for', 'forwarded', 'x-real-ip'];

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Whether the request carries the token, compared in constant time (over digests, so the length leaks nothing either). */
function bearerMatches(request: FastifyRequest, expected: Buffer): boolean {
  const header = request.headers.authorization ?? '';
  const match = /^Bearer +(\S+)\s*$/i.exec(header);
  return timingSafeEqual(digest(match?.[1] ?? ''), expected) && match !== null;
}

/** The socket's own peer (request.ip would believe X-Forwarded-For under TRUST_PROXY) on loopback, and no proxy header. */
function fromThisHost(request: FastifyRequest): boolean {
  const peer = request.raw.socket.remoteAddress ?? '';
  return LOOPBACK.has(peer) && PROXY_HEADERS.every((name) => request.headers[name] === undefined);
}

export function registerMetrics(
  app: FastifyInstance,
  metrics: Metrics,
  access: { token: string | null; behindProxy: boolean },
): void {
  // Every answer, by its route's template (never the URL, which holds ids); onResponse comes after the last byte.
  app.addHook('onResponse', (request, reply, done) => {
    metrics.httpRequest(request.method, request.routeOptions.url, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
  // A story stream is open from its headers until its socket closes (its end, or the reader gone).
  app.addHook('onSend', (_request, reply, payload, done) => {
    const type = reply.getHeader('content-type');
    if (typeof type === 'string' && type.startsWith('text/event-stream')) {
      metrics.streamOpened();
      reply.raw.once('close', () => metrics.streamClosed());
    }
    done(null, payload);
  });

  const expected = access.token === null ? null : digest(access.token);
  app.get('/metrics', async (request: FastifyRequest, reply: FastifyReply) => {
    if (expected) {
      if (!bearerMatches(request, expected)) {
        // A 401 names the scheme to answer with (RFC 9110); the error handler answers on this reply, so it stays.
        reply.header('www-authenticate', 'Bearer');
        throw unauthenticated();
      }
    } else if (access.behindProxy || !fromThisHost(request)) {
      throw new DomainError('notFound', ERROR_CODES.notFound, MESSAGES.notFound);
    }
    const text = await metrics.text();
    return reply.header('cache-control', 'no-store').type(metrics.contentType).send(text);
  });
}
