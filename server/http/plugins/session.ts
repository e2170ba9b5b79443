// Reads the session cookie on API requests (the routes security.ts marks as declared under /api,
// whatever the raw URL looked like) and attaches the resolved session to the request.
// The cookie: HttpOnly, SameSite=Lax, Path=/, Secure under HTTPS (or as COOKIE_SECURE says).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '@server/kernel/config';
import { unauthenticated } from '@server/kernel/errors';
import { isApiRoute } from './security';
import { SESSION_LIFETIME_MS, type ResolvedSession, type SessionService } from '@server/domains/account/sessions';

declare module 'fastify' {
  interface FastifyRequest {
    session: ResolvedSession | null;
  }
}

export const SESSION_COOKIE = 'tw_session';

export function cookieOptions(
  request: FastifyRequest,
  config: Pick<AppConfig, 'cookieSecure'>,
  maxAgeMs: number,
  path = '/',
) {
  return {
    httpOnly: true,
    sameSite: 'lax' as const,
    path,
    secure: config.cookieSecure === 'auto' ? request.protocol === 'https' : config.cookieSecure,
    maxAge: Math.floor(maxAgeMs / 1000),
  };
}

export function createSessionCookies(config: Pick<AppConfig, 'cookieSecure'>) {
  return {
    set(request: FastifyRequest, reply: FastifyReply, token: string) {
      reply.setCookie(SESSION_COOKIE, token, cookieOptions(request, config, SESSION_LIFETIME_MS));
    },
    clear(request: FastifyRequest, reply: FastifyReply) {
      const { maxAge: _maxAge, ...options } = cookieOptions(request, config, 0);
      reply.clearCookie(SESSION_COOKIE, options);
    },
  };
}
export type SessionCookies = ReturnType<typeof createSessionCookies>;

export function registerSession(app: FastifyInstance, sessions: SessionService, cookies: SessionCookies): void {
  app.decorateRequest('session', null);
  // Callback-style: a request without a session cookie (every public read) passes without a promise.
  app.addHook('onRequest', (request, reply, done) => {
    const token = isApiRoute(request) ? request.cookies[SESSION_COOKIE] : undefined;
    if (!token) return done();
    sessions.resolve(token).then((resolved) => {
      if (!resolved) {
        cookies.clear(request, reply);
      } else {
        request.session = resolved;
        // Sliding expiry: the browser's copy must move with the server's.
        if (resolved.extended) cookies.set(request, reply, token);
      }
      done();
    }, done);
  });
}

/** The signed-in user's id, or a 401 "Authentication required". */
export function requireUserId(request: FastifyRequest): number {
  if (!request.session) throw unauthenticated();
  return request.session.userId;
}
