// Request ids and the one log line per request. Every request gets an id: the `X-Request-Id` a
// trusted proxy sent (TRUST_PROXY set; a short, plain token, so no one writes into our log lines),
// or a new random one. Fastify binds it to every line the request's logger writes (`reqId`), and it
// goes back in the answer's `X-Request-Id`, so a player's report or a proxy's log finds our lines.
// Fastify's own two lines a request ("incoming request", "request completed") become one, written
// when the answer is sent (its LogController): method, URL, status and time. A route with a quieter
// level (a shared read) writes none, as before.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import {
  LogController,
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import type { TrustProxy } from '@server/kernel/config';

export const REQUEST_ID_HEADER = 'x-request-id';
/** What we take from a proxy: the shapes proxies send (UUIDs, hex, base64url, nginx's $request_id). */
const WELL_FORMED_ID = /^[\w.:@+=/-]{1,128}$/;

/**
 * Fastify's genReqId: the trusted proxy's id, else this process's random prefix and a counter in
 * base 36 (`Kf3xQ9a-1c2`): unique across instances, and cheap, where a random id a request (9
 * random bytes) took 7 % of the busy time of a server answering shared reads (docs/benchmarks.md).
 */
export function requestIdGenerator(trustProxy: TrustProxy) {
  const takeProxyIds = trustProxy !== false;
  const prefix = `${randomBytes(6).toString('base64url')}-`;
  let counter = 0;
  return (request: IncomingMessage): string => {
    const given = request.headers[REQUEST_ID_HEADER];
    if (takeProxyIds && typeof given === 'string' && WELL_FORMED_ID.test(given)) return given;
    counter += 1;
    return prefix + counter.toString(36);
  };
}

/** Whether a line at `level` would be written (pino and our lazy child say; a logger without the method, as with logging off, is asked anyway). */
function writes(log: FastifyBaseLogger, level: 'info' | 'error'): boolean {
  const check = (log as Partial<{ isLevelEnabled(level: string): boolean }>).isLevelEnabled;
  return typeof check === 'function' ? check.call(log, level) : true;
}

/** Fastify's request lines, as one line when the answer has gone. */
export class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const status = reply.statusCode;
    const failed = Boolean(error) || status >= 500;
    // A quiet route (a shared read logs warnings only) pays for nothing here.
    if (!writes(request.log, failed ? 'error' : 'info')) return;
    const fields = {
      method: request.method,
      url: request.url,
      status,
      ms: Math.round(reply.elapsedTime * 10) / 10,
      ...(error && { err: error }),
    };
    const line = `${request.method} ${request.url} ${status}`;
    if (failed) request.log.error(fields, line);
    else request.log.info(fields, line);
  }
}

/** Every answer names its request. */
export function registerRequestIds(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });
}
