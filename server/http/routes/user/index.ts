// The signed-in user and the account settings: GET/HEAD /api/user, /api/settings/username,
// /api/settings/password and /api/update-email; the player's data: GET /api/user/export (all of
// it, as a JSON download) and DELETE /api/user {password} (the account and everything of theirs);
// GET /api/user/limits: each account quota's use against its limit. A rename and an email change
// tell whether the name or email is someone else's, so both are counted per IP (/64) like
// /api/check-username.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  changePasswordBodySchema,
  changeUsernameBodySchema,
  updateEmailBodySchema,
  userResponseSchema,
} from '@shared/schemas/auth';
import { successSchema } from '@shared/schemas/common';
import { deleteAccountBodySchema } from '@shared/schemas/my-data';
import { userLimitsResponseSchema } from '@shared/schemas/quotas';
import { requireUserId } from '@server/http/plugins/session';
import { MESSAGES, tooManyRequests } from '@server/kernel/errors';
import { ipKey } from '@server/domains/limits/request-limits';
import { countUsernameCheck } from '../auth';
import type { RouteContext } from '../context';
import { sendDownload } from '../download';

const HOUR_MS = 60 * 60_000;

export function userRoutes(ctx: RouteContext): FastifyPluginAsyncZod {
  const emailUpdateLimit = {
    bucket: 'email-update-ip',
    max: ctx.config.accountLookups.emailUpdatesPerHour,
    windowMs: HOUR_MS,
  };

  return async (app) => {
    // Fastify answers HEAD /api/user from this route too (same status, no body): the 30 s session check.
    app.get(
      '/user',
      { schema: { summary: 'The signed-in player', response: { 200: userResponseSchema } } },
      async (request) => {
        return ctx.accounts.getUser(requireUserId(request));
      },
    );

    app.post(
      '/settings/username',
      {
        schema: {
          summary: 'Change the username',
          body: changeUsernameBodySchema,
          response: { 200: userResponseSchema },
        },
      },
      async (request) => {
        const userId = requireUserId(request);
        await countUsernameCheck(ctx, request.ip);
        return ctx.accounts.changeUsername(userId, request.body.newUsername);
      },
    );

    app.post(
      '/settings/password',
      { schema: { summary: 'Change the password', body: changePasswordBodySchema, response: { 200: successSchema } } },
      async (request, reply) => {
        const userId = requireUserId(request);
        await ctx.accounts.changePassword(userId, request.body, request.ip);
        // Every other session ends; this browser gets a new token so it stays signed in.
        const { token } = await ctx.sessions.rotate(userId, request.session?.tokenHash ?? null);
        ctx.sessionCookies.set(request, reply, token);
        return { success: true as const };
      },
    );

    app.get(
      '/user/limits',
      {
        schema: { summary: "Each account quota's use against its limit", response: { 200: userLimitsResponseSchema } },
      },
      async (request) => {
        return ctx.quotas.usage(requireUserId(request));
      },
    );

    app.get(
      '/user/export',
      { schema: { summary: "All the player's data, as a JSON download" } },
      async (request, reply) => {
        return sendDownload(reply, await ctx.myData.export(requireUserId(request)));
      },
    );

    app.delete(
      '/user',
      {
        schema: {
          summary: 'Delete the account and everything of it',
          body: deleteAccountBodySchema,
          response: { 200: successSchema },
        },
      },
      async (request, reply) => {
        await ctx.myData.deleteAccount(requireUserId(request), request.body.password);
        ctx.sessionCookies.clear(request, reply);
        return { success: true as const };
      },
    );

    app.post(
      '/update-email',
      {
        schema: {
          summary: 'Change the email address',
          body: updateEmailBodySchema,
          response: { 200: userResponseSchema },
        },
      },
      async (request) => {
        const userId = requireUserId(request);
        if (!(await ctx.requestLimiter.allow(emailUpdateLimit, ipKey(request.ip))))
          throw tooManyRequests(MESSAGES.tooManyEmailUpdates, HOUR_MS / 1000);
        return ctx.accounts.updateEmail(userId, request.body.email);
      },
    );
  };
}
