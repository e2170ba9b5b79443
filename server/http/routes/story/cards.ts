// The story cards endpoints, the owner's only: GET/POST /api/story/{id}/cards,
// PATCH/DELETE /api/story/{id}/cards/{cardId}, POST /api/story/{id}/cards/import (a lorebook file's
// raw bytes, JSON or a PNG character card, up to 5 MB), GET /api/story/{id}/cards/export, and the
// context record of a reply: GET /api/story/{id}/messages/{messageId}/context[?version=N].
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { successSchema } from '@shared/schemas/common';
import { storyParamsSchema } from '@shared/schemas/story';
import {
  CARD_IMPORT_MAX_BYTES,
  STORY_CARD_MESSAGES,
  cardParamsSchema,
  cardsExportQuerySchema,
  contextQuerySchema,
  narratorContextSchema,
  storyCardBodySchema,
  storyCardPatchSchema,
  storyCardResponseSchema,
  storyCardsImportResponseSchema,
  storyCardsResponseSchema,
} from '@shared/schemas/story-cards';
import { messageParamsSchema } from '@shared/schemas/story-versions';
import { sendJsonBytes } from '@server/http/plugins/json-bytes';
import { requireUserId } from '@server/http/plugins/session';
import type { RouteContext } from '../context';
import { sendDownload } from '../download';

/**
 * The content types a lorebook file arrives as: JSON, a PNG card, or bytes of no known type. None of
 * them can be sent by a cross-site form without a CORS preflight, so the JSON-only rule's CSRF defence holds.
 */
const IMPORT_TYPES = ['application/json', 'image/png', 'application/octet-stream'];

export function storyCardRoutes(ctx: RouteContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/story/:storyId/cards',
      {
        schema: {
          summary: "The story's cards",
          params: storyParamsSchema,
          response: { 200: storyCardsResponseSchema },
        },
      },
      async (request, reply) =>
        sendJsonBytes(reply, await ctx.storyCards.list(requireUserId(request), request.params.storyId)),
    );

    app.post(
      '/story/:storyId/cards',
      {
        schema: {
          summary: 'Add a story card',
          params: storyParamsSchema,
          body: storyCardBodySchema,
          response: { 201: storyCardResponseSchema },
        },
      },
      async (request, reply) => {
        const card = await ctx.storyCards.create(requireUserId(request), request.params.storyId, request.body);
        return reply.status(201).send({ card });
      },
    );

    app.patch(
      '/story/:storyId/cards/:cardId',
      {
        schema: {
          summary: 'Edit a story card',
          params: cardParamsSchema,
          body: storyCardPatchSchema,
          response: { 200: storyCardResponseSchema },
        },
      },
      async (request) => {
        const { storyId, cardId } = request.params;
        return { card: await ctx.storyCards.edit(requireUserId(request), storyId, cardId, request.body) };
      },
    );

    app.delete(
      '/story/:storyId/cards/:cardId',
      { schema: { summary: 'Delete a story card', params: cardParamsSchema, response: { 200: successSchema } } },
      async (request) => {
        await ctx.storyCards.remove(requireUserId(request), request.params.storyId, request.params.cardId);
        return { success: true as const };
      },
    );

    app.get(
      '/story/:storyId/cards/export',
      {
        schema: {
          summary: "The story's cards as a lorebook file",
          params: storyParamsSchema,
          querystring: cardsExportQuerySchema,
        },
      },
      async (request, reply) =>
        sendDownload(
          reply,
          await ctx.storyCards.exportFile(requireUserId(request), request.params.storyId, request.query.format),
        ),
    );

    app.get(
      '/story/:storyId/messages/:messageId/context',
      {
        schema: {
          summary: 'What the narrator was sent for a reply (its context record)',
          params: messageParamsSchema,
          querystring: contextQuerySchema,
          response: { 200: narratorContextSchema },
        },
      },
      async (request) => {
        const { storyId, messageId } = request.params;
        return ctx.storyCards.context(requireUserId(request), storyId, messageId, request.query.version);
      },
    );

    // The file arrives as bytes, whatever its type: the formats are told apart by their content.
    await app.register(async (rawBody) => {
      rawBody.removeContentTypeParser('application/json');
      rawBody.addContentTypeParser(IMPORT_TYPES, { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
      rawBody.withTypeProvider<ZodTypeProvider>().post(
        '/story/:storyId/cards/import',
        {
          bodyLimit: CARD_IMPORT_MAX_BYTES,
          config: {
            bodyTypes: { types: IMPORT_TYPES, message: STORY_CARD_MESSAGES.importType },
            bodyTooLargeMessage: STORY_CARD_MESSAGES.importTooLarge,
          },
          // Before the body is read: a visitor's 5 MB are refused unread.
          onRequest: async (request) => {
            requireUserId(request);
          },
          schema: {
            summary: 'Import cards from a lorebook file (JSON or a PNG character card)',
            params: storyParamsSchema,
            response: { 201: storyCardsImportResponseSchema },
          },
        },
        async (request, reply) =>
          sendJsonBytes(
            reply.status(201),
            await ctx.storyCards.importFile(requireUserId(request), request.params.storyId, request.body as Buffer),
          ),
      );
    });
  };
}
