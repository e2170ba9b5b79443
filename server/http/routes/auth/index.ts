// Sign-up, sign-in and sign-out: /api/register, /api/login, /api/logout, /api/check-username, /api/captcha.
// Whether a name is taken is an answer an enumerator wants in bulk: the checks are counted per IP
// (/64) in memory or Redis, generously for a sign-up form that asks 500 ms after typing stops.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  captchaResponseSchema,
  checkUsernameQuerySchema,
  checkUsernameResponseSchema,
  loginBodySchema,
  logoutResponseSchema,
  registerBodySchema,
  userResponseSchema,
} from '@shared/schemas/auth';
import { MESSAGES, tooManyRequests } from '@server/kernel/errors';
import { cookieOptions } from '@server/http/plugins/session';
import { CAPTCHA_LIFETIME_MS } from '@server/domains/account/captcha';
import { ipKey } from '@server/domains/limits/request-limits';
import type { RouteContext } from '../context';

export const CAPTCHA_COOKIE = 'tw_captcha';

/** Throws 429 when this request's network has asked whether names are taken too often this minute. */
export async function countUsernameCheck(ctx: RouteContext, ip: string): Promise<void> {
  const limit = {
    bucket: 'username-check-ip',
    max: ctx.config.accountLookups.usernameChecksPerMinute,
    windowMs: 60_000,
  };
  if (!(await ctx.requestLimiter.allow(limit, ipKey(ip)))) throw tooManyRequests(MESSAGES.tooManyUsernameChecks, 60);
}

export function authRoutes(ctx: RouteContext): FastifyPluginAsyncZod {
  const captchaLimit = { bucket: 'captcha-ip', max: ctx.config.rateLimits.captchaPerMinute, windowMs: 60_000 };

  return async (app) => {
    app.post(
      '/register',
      {
        schema: {
          summary: 'Sign up: create an account and sign it in',
          body: registerBodySchema,
          response: { 201: userResponseSchema },
        },
      },
      async (request, reply) => {
        const user = await ctx.accounts.register(request.body, request.cookies[CAPTCHA_COOKIE], request.ip);
        reply.clearCookie(CAPTCHA_COOKIE, { path: '/api' });
        const { token } = await ctx.sessions.create(user.id);
        ctx.sessionCookies.set(request, reply, token);
        return reply.status(201).send(user);
      },
    );

    app.post(
      '/login',
      { schema: { summary: 'Sign in', body: loginBodySchema, response: { 200: userResponseSchema } } },
      async (request, reply) => {
        const user = await ctx.accounts.login(request.body, request.ip);
        // A fresh token on every login, so a token planted before sign-in is worth nothing after it.
        if (request.session) await ctx.sessions.end(request.session.tokenHash);
        const { token } = await ctx.sessions.create(user.id);
        ctx.sessionCookies.set(request, reply, token);
        return user;
      },
    );

    app.post(
      '/logout',
      { schema: { summary: 'Sign out: end this session', response: { 200: logoutResponseSchema } } },
      async (request, reply) => {
        if (request.session) await ctx.sessions.end(request.session.tokenHash);
        ctx.sessionCookies.clear(request, reply);
        return { success: true as const };
      },
    );

    app.get(
      '/check-username',
      {
        schema: {
          summary: 'Whether a username is free',
          querystring: checkUsernameQuerySchema,
          response: { 200: checkUsernameResponseSchema },
        },
      },
      async (request) => {
        await countUsernameCheck(ctx, request.ip);
        return { available: await ctx.accounts.isUsernameAvailable(request.query.username) };
      },
    );

    app.get(
      '/captcha',
      { schema: { summary: "The sign-up form's captcha question", response: { 200: captchaResponseSchema } } },
      async (request, reply) => {
        // Counted in memory or Redis: each question is one database write already, not three.
        if (!(await ctx.requestLimiter.allow(captchaLimit, ipKey(request.ip))))
          throw tooManyRequests(MESSAGES.tooManyCaptchas, 60);
        const { token, question } = await ctx.captcha.issue(request.cookies[CAPTCHA_COOKIE]);
        reply.setCookie(CAPTCHA_COOKIE, token, cookieOptions(request, ctx.config, CAPTCHA_LIFETIME_MS, '/api'));
        return { success: true as const, question };
      },
    );
  };
}
