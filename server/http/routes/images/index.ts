// The image endpoints: generate-image and generate-initial-image (the job is
// accepted and runs behind), the picture's state, the story's style sheet, the stored bytes for
// their owner (content-addressed, cached forever).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  generateImageBodySchema,
  generateImageResponseSchema,
  imageMessageParamsSchema,
  messageImageResponseSchema,
  styleSheetResponseSchema,
  styleSheetSchema,
} from '@shared/schemas/images';
import { storyParamsSchema } from '@shared/schemas/story';
import { DomainError } from '@server/kernel/errors';
import type { StoredAsset } from '@server/db/repositories/images';
import { requireUserId } from '@server/http/plugins/session';
import { ERROR_CODES } from '@shared/schemas/common';
import { IMAGE_MESSAGES } from '@shared/schemas/images';
import type { RouteContext } from '../context';
import { fromOwnApp } from '../own-app';
import { matchesEtag } from '../http-cache';

/** `{sha256}.webp` or `{sha256}.thumb.webp`; anything else is simply not found. */
export const IMAGE_FILE_PATTERN = /^([0-9a-f]{64})(\.thumb)?\.webp$/;
export const imageFileParamsSchema = z.object({ file: z.string() });

export function parseImageFile(file: string): { hash: string; thumbnail: boolean } | null {
  const match = IMAGE_FILE_PATTERN.exec(file);
  return match ? { hash: match[1], thumbnail: Boolean(match[2]) } : null;
}

/** The owner's pictures: their URL is the content's hash, so the bytes behind it never change. */
export const OWNER_ASSET_CACHE_CONTROL = 'private, max-age=31536000, immutable';

/** Sends stored bytes with an ETag for revalidation, cached as `cacheControl` says. */
export function sendAsset(
  request: FastifyRequest,
  reply: FastifyReply,
  asset: StoredAsset,
  thumbnail: boolean,
  cacheControl: string,
) {
  const etag = `"${asset.hash.slice(0, 32)}${thumbnail ? '-t' : ''}"`;
  reply.header('etag', etag).header('cache-control', cacheControl).header('x-content-type-options', 'nosniff');
  if (matchesEtag(request, etag)) return reply.status(304).send();
  return reply.type('image/webp').send(thumbnail ? asset.thumbnail : asset.webp);
}

const imageNotFound = () => new DomainError('notFound', ERROR_CODES.notFound, IMAGE_MESSAGES.imageNotFound);

export function imageRoutes(ctx: RouteContext): FastifyPluginAsyncZod {
  return async (app) => {
    const paintings = {
      '/story/message/:messageId/generate-image': "Paint a reply's picture",
      '/story/message/:messageId/generate-initial-image': "Paint the picture of the story's opening",
    };
    for (const [path, summary] of Object.entries(paintings)) {
      app.post(
        path,
        {
          schema: {
            summary,
            params: imageMessageParamsSchema,
            body: generateImageBodySchema,
            response: { 200: generateImageResponseSchema, 202: generateImageResponseSchema },
          },
        },
        async (request, reply) => {
          const answer = await ctx.images.generate(requireUserId(request), request.params.messageId, request.body);
          return reply.status(answer.image ? 200 : 202).send(answer);
        },
      );
    }

    app.get(
      '/story/message/:messageId/image',
      {
        schema: {
          summary: "A reply's picture, or why there is none yet",
          params: imageMessageParamsSchema,
          response: { 200: messageImageResponseSchema },
        },
      },
      async (request) => {
        return ctx.images.status(requireUserId(request), request.params.messageId);
      },
    );

    app.get(
      '/story/:storyId/style-sheet',
      {
        schema: {
          summary: "The story's style sheet for pictures",
          params: storyParamsSchema,
          response: { 200: styleSheetResponseSchema },
        },
      },
      async (request) => {
        const sheet = await ctx.images.styleSheet(requireUserId(request), request.params.storyId, fromOwnApp(request));
        await ctx.flush();
        return sheet;
      },
    );

    app.put(
      '/story/:storyId/style-sheet',
      {
        schema: {
          summary: 'Save the style sheet',
          params: storyParamsSchema,
          body: styleSheetSchema,
          response: { 200: styleSheetResponseSchema },
        },
      },
      async (request) => ctx.images.saveStyleSheet(requireUserId(request), request.params.storyId, request.body),
    );

    app.get(
      '/images/:file',
      { schema: { summary: 'A stored picture, for its owner', params: imageFileParamsSchema } },
      async (request, reply) => {
        const userId = requireUserId(request);
        const file = parseImageFile(request.params.file);
        const asset = file && (await ctx.images.ownerAsset(userId, file.hash));
        if (!file || !asset) throw imageNotFound();
        return sendAsset(request, reply, asset, file.thumbnail, OWNER_ASSET_CACHE_CONTROL);
      },
    );
  };
}
