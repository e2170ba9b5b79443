// The story library's endpoints: GET /api/stories (the owner's stories, paged, newest
// played first, searchable by title), PATCH /api/story/{id} (rename), DELETE /api/story/{id} (the
// story with its bookmarks, shares and pictures, after the browser's confirmation), and a story as
// a file: GET /api/story/{id}/export?format=markdown|json, POST /api/story/import (up to 5 MB).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { successSchema } from '@shared/schemas/common';
import {
  libraryPageSchema,
  libraryQuerySchema,
  storyRenameBodySchema,
  storyRenameResponseSchema,
} from '@shared/schemas/library';
import { storyParamsSchema } from '@shared/schemas/story';
import {
  STORY_FILE_MESSAGES,
  STORY_IMPORT_MAX_BYTES,
  storyExportQuerySchema,
  storyImportResponseSchema,
} from '@shared/schemas/story-export';
import { requireUserId } from '@server/http/plugins/session';
import type { RouteContext } from '../context';
import { sendDownload } from '../download';

export function libraryRoutes(ctx: RouteContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/stories',
      {
        schema: {
          summary: "The player's stories, paged, newest played first",
          querystring: libraryQuerySchema,
          response: { 200: libraryPageSchema },
        },
      },
      async (request) => {
        return ctx.library.list(requireUserId(request), request.query);
      },
    );

    app.patch(
      '/story/:storyId',
      {
        schema: {
          summary: 'Rename a story',
          params: storyParamsSchema,
          body: storyRenameBodySchema,
          response: { 200: storyRenameResponseSchema },
        },
      },
      async (request) => ctx.library.rename(requireUserId(request), request.params.storyId, request.body.title),
    );

    app.get(
      '/story/:storyId/export',
      {
        schema: {
          summary: 'A story as a file (Markdown or JSON)',
          params: storyParamsSchema,
          querystring: storyExportQuerySchema,
        },
      },
      async (request, reply) => {
        const userId = requireUserId(request);
        const { storyId } = request.params;
        // Picture links are absolute only under a trusted base (routes/public-url.ts), else relative.
        const baseUrl = ctx.publicBaseUrl(request) ?? '';
        const file =
          request.query.format === 'json'
            ? await ctx.storyFiles.exportJson(userId, storyId)
            : await ctx.storyFiles.exportMarkdown(userId, storyId, baseUrl);
        return sendDownload(reply, file);
      },
    );

    // The file arrives as bytes, not parsed by the app's JSON parser: it is parsed and checked in
    // a worker thread (a 5 MB file held the event loop 60-80 ms), with the same messages.
    await app.register(async (rawBody) => {
      rawBody.removeContentTypeParser('application/json');
      rawBody.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) =>
        done(null, body),
      );
      rawBody.post(
        '/story/import',
        {
          bodyLimit: STORY_IMPORT_MAX_BYTES,
          config: { bodyTooLargeMessage: STORY_FILE_MESSAGES.tooLarge },
          // Before the body is read: a visitor's 5 MB are refused unread.
          onRequest: async (request) => {
            requireUserId(request);
          },
          schema: { summary: 'Import a story from a file', response: { 201: storyImportResponseSchema } },
        },
        async (request, reply) =>
          reply.status(201).send(await ctx.storyFiles.importFile(requireUserId(request), request.body as Buffer)),
      );
    });

    app.delete(
      '/story/:storyId',
      {
        schema: {
          summary: 'Delete a story with its bookmarks, shares and pictures',
          params: storyParamsSchema,
          response: { 200: successSchema },
        },
      },
      async (request) => {
        await ctx.library.remove(requireUserId(request), request.params.storyId);
        return { success: true as const };
      },
    );
  };
}
