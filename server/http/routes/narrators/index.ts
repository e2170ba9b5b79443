// GET /api/narrators (public): the narrators the caller may pick for a story, from the operator's
// catalogue; a visitor sees those open to everyone, as a player does.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { narratorsResponseSchema } from '@shared/schemas/narrators';
import type { RouteContext } from '../context';

export function narratorRoutes(ctx: RouteContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/narrators',
      {
        schema: {
          summary: 'The narrators the caller may pick for a story',
          response: { 200: narratorsResponseSchema },
        },
      },
      async (request) => ctx.narrators.list(request.session?.userId ?? null),
    );
  };
}
