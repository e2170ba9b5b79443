// Request ids and the one log line per request. Every request gets an id: the `X-Request-Id` a
// trusted proxy sent (TRUST_PROXY set; a short, plain token, so no one writes into our log lines),
// or a new random one. Fastify binds it to every line the request's logger writes (`reqId`), and it
// goes back in the answer's `X-Request-Id`, so a player's report or a proxy's log finds our lines.
// Fastify's own two lines a request ("incoming request", "request completed") become one, written
// when the answer is sent (its LogController): method, URL, status and time. A route with a quieter
// level (a shared read) writes none, as before.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { TrustProxy } from '@server/kernel/config';

export const REQUEST_ID_HEADER = 'x-request-id';
/** What we take from a proxy: the shapes proxies send (UUIDs, hex, base64url, nginx's $request_id). */
const WELL_FORMED_ID = /^[\w.:@+=/-]{1,128}$/;

/** Fastify's genReqId: the trusted proxy's id, else 12 random base64url characters. */
export function requestIdGenerator(trustProxy: TrustProxy) {
  const takeProxyIds = trustProxy !== false;
  return (request: IncomingMessage): string => {
    const given = request.headers[REQUEST_ID_HEADER];
    if (takeProxyIds && typeof given === 'string' && WELL_FORMED_ID.test(given)) return given;
    return randomBytes(9).toString('base64url');
  };
}

/** Fastify's request lines, as one line when the answer has gone. */
export class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const status = reply.statusCode;
    const fields = {
      method: request.method,
      url: request.url,
      status,
      ms: Math.round(reply.elapsedTime * 10) / 10,
    };
    const line = `${request.method} ${request.url} ${status}`;
    if (error) request.log.error({ ...fields, err: error }, line);
    else if (status >= 500) request.log.error(fields, line);
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
