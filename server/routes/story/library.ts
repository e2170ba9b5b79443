// The story library's endpoints (issue 12): GET /api/stories (the owner's stories, paged, newest
// played first, searchable by title), PATCH /api/story/{id} (rename) and DELETE /api/story/{id}
// (the story with its bookmarks, shares and pictures, after the browser's confirmation).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { successSchema } from '@shared/schemas/common';
import { libraryPageSchema, libraryQuerySchema, storyRenameBodySchema, storyRenameResponseSchema } from '@shared/schemas/library';
import { storyParamsSchema } from '@shared/schemas/story';
import { requireUserId } from '@server/plugins/session';
import type { RouteContext } from '../context';

export function libraryRoutes(ctx: RouteContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/stories', { schema: { querystring: libraryQuerySchema, response: { 200: libraryPageSchema } } }, async (request) => {
      return ctx.library.list(requireUserId(request), request.query);
    });

    app.patch(
      '/story/:storyId',
      { schema: { params: storyParamsSchema, body: storyRenameBodySchema, response: { 200: storyRenameResponseSchema } } },
      async (request) => ctx.library.rename(requireUserId(request), request.params.storyId, request.body.title),
    );

    app.delete('/story/:storyId', { schema: { params: storyParamsSchema, response: { 200: successSchema } } }, async (request) => {
      await ctx.library.remove(requireUserId(request), request.params.storyId);
      return { success: true as const };
    });
  };
}
