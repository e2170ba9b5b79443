// Story preferences (and the narrator of new stories): GET /api/preferences answers the defaults to visitors, so the
// page can show them; POST /api/preferences changes a field for the signed-in player and answers the
// full set. A visitor's POST is 401 'Not authenticated', the words the page's toast branches on.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  PREFERENCES_MESSAGES,
  preferencesResponseSchema,
  preferencesUpdateBodySchema,
} from '@shared/schemas/preferences';
import { unauthenticated } from '@server/kernel/errors';
import type { RouteContext } from '../context';

export function preferencesRoutes(ctx: RouteContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/preferences',
      {
        schema: {
          summary: 'Story preferences (the defaults, for visitors)',
          response: { 200: preferencesResponseSchema },
        },
      },
      async (request) => {
        return request.session ? ctx.preferences.read(request.session.userId) : ctx.preferences.visitor();
      },
    );

    app.post(
      '/preferences',
      {
        // The session is checked before the body: a visitor is told to log in, whatever was sent.
        preValidation: async (request) => {
          if (!request.session) throw unauthenticated(PREFERENCES_MESSAGES.notAuthenticated);
        },
        schema: {
          summary: 'Change story preferences',
          body: preferencesUpdateBodySchema,
          response: { 200: preferencesResponseSchema },
        },
      },
      async (request) => {
        if (!request.session) throw unauthenticated(PREFERENCES_MESSAGES.notAuthenticated);
        return ctx.preferences.update(request.session.userId, request.body);
      },
    );
  };
}
