// The bookmark endpoints: GET/POST /api/bookmarks, PATCH/DELETE /api/bookmarks/:id.
// Every one needs a session; bookmarks are their owner's only.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  bookmarkCreateBodySchema,
  bookmarkListSchema,
  bookmarkParamsSchema,
  bookmarkSchema,
  bookmarkUpdateBodySchema,
} from '@shared/schemas/bookmarks';
import { successSchema } from '@shared/schemas/common';
import { requireUserId } from '@server/http/plugins/session';
import type { RouteContext } from '../context';

export function bookmarkRoutes(ctx: RouteContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/bookmarks',
      { schema: { summary: "The player's bookmarks", response: { 200: bookmarkListSchema } } },
      async (request) => {
        return ctx.bookmarks.list(requireUserId(request));
      },
    );

    app.post(
      '/bookmarks',
      { schema: { summary: 'Add a bookmark', body: bookmarkCreateBodySchema, response: { 201: bookmarkSchema } } },
      async (request, reply) => {
        const bookmark = await ctx.bookmarks.create(requireUserId(request), request.body);
        return reply.status(201).send(bookmark);
      },
    );

    app.patch(
      '/bookmarks/:id',
      {
        schema: {
          summary: 'Change a bookmark',
          params: bookmarkParamsSchema,
          body: bookmarkUpdateBodySchema,
          response: { 200: bookmarkSchema },
        },
      },
      async (request) => {
        return ctx.bookmarks.update(requireUserId(request), request.params.id, request.body);
      },
    );

    app.delete(
      '/bookmarks/:id',
      { schema: { summary: 'Delete a bookmark', params: bookmarkParamsSchema, response: { 200: successSchema } } },
      async (request) => {
        await ctx.bookmarks.remove(requireUserId(request), request.params.id);
        return { success: true as const };
      },
    );
  };
}
