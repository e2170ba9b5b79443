// The story bible endpoints, the owner's only (another player's story is 404 like a
// missing one): GET /api/story/{id}/bible, PATCH and DELETE /api/story/{id}/bible/{factId}, and
// POST /api/story/{id}/bible/suggest-cards (proposed cards; nothing is saved).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { successSchema } from '@shared/schemas/common';
import { storyParamsSchema } from '@shared/schemas/story';
import {
  bibleFactParamsSchema,
  bibleFactPatchSchema,
  bibleFactResponseSchema,
  storyBibleResponseSchema,
  suggestedCardsResponseSchema,
} from '@shared/schemas/story-bible';
import { requireUserId } from '@server/http/plugins/session';
import type { RouteContext } from '../context';

export function storyBibleRoutes(ctx: RouteContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/story/:storyId/bible',
      {
        schema: {
          summary: "The story bible's facts",
          params: storyParamsSchema,
          response: { 200: storyBibleResponseSchema },
        },
      },
      async (request) => ({ facts: await ctx.storyBible.list(requireUserId(request), request.params.storyId) }),
    );

    app.patch(
      '/story/:storyId/bible/:factId',
      {
        schema: {
          summary: 'Edit a fact of the story bible',
          params: bibleFactParamsSchema,
          body: bibleFactPatchSchema,
          response: { 200: bibleFactResponseSchema },
        },
      },
      async (request) => {
        const { storyId, factId } = request.params;
        return { fact: await ctx.storyBible.edit(requireUserId(request), storyId, factId, request.body) };
      },
    );

    app.delete(
      '/story/:storyId/bible/:factId',
      {
        schema: {
          summary: 'Delete a fact of the story bible',
          params: bibleFactParamsSchema,
          response: { 200: successSchema },
        },
      },
      async (request) => {
        await ctx.storyBible.remove(requireUserId(request), request.params.storyId, request.params.factId);
        return { success: true as const };
      },
    );

    app.post(
      '/story/:storyId/bible/suggest-cards',
      {
        schema: {
          summary: 'Story cards proposed from the bible (nothing is saved)',
          params: storyParamsSchema,
          response: { 200: suggestedCardsResponseSchema },
        },
      },
      async (request) => ({ cards: await ctx.storyBible.suggestCards(requireUserId(request), request.params.storyId) }),
    );
  };
}
