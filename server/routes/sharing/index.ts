// Sharing endpoints (spec section 7): POST /api/story/:storyId/share (owner), DELETE
// /api/shared/:shareId (owner) and the public GET /api/shared/:shareId. Public reads are limited per
// IP and cacheable: a snapshot never changes, so its ETag holds until the owner stops sharing, and a
// short max-age bounds how long a stopped link can linger in caches.
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ERROR_CODES, successSchema } from '@shared/schemas/common';
import { IMAGE_MESSAGES } from '@shared/schemas/images';
import { AppError } from '@server/errors';
import { parseImageFile, sendAsset } from '../images';
import { SAMPLE_SHARE_ID, SHARING_MESSAGES, shareBodySchema, shareParamsSchema, shareResponseSchema, sharedStorySchema } from '@shared/schemas/sharing';
import { storyParamsSchema } from '@shared/schemas/story';
import { tooManyRequests } from '@server/errors';
import { requireUserId } from '@server/plugins/session';
import type { Limit } from '@server/services/rate-limiter';
import type { RouteContext } from '../context';
import { matchesEtag } from '../http-cache';

export const SHARED_MAX_AGE_SECONDS = 60;
export const SAMPLE_MAX_AGE_SECONDS = 3600;

export function sharedReadLimit(ctx: RouteContext): Limit {
  return { bucket: 'shared-read-ip', max: ctx.config.sharedReadsPerMinute, windowMs: 60_000 };
}

/** Counts one public read for the caller's IP; false when the IP has used up its reads. */
export async function takeSharedRead(ctx: RouteContext, request: FastifyRequest): Promise<boolean> {
  return ctx.limiter.allow(sharedReadLimit(ctx), request.ip);
}

function etagFor(body: unknown): string {
  return `"${createHash('sha256').update(JSON.stringify(body)).digest('base64url').slice(0, 27)}"`;
}

/** Public when nothing personal rides along: a refreshed session cookie must never sit in a shared cache. */
function setCaching(reply: FastifyReply, maxAgeSeconds: number): void {
  const scope = reply.hasHeader('set-cookie') ? 'private' : 'public';
  reply.header('cache-control', `${scope}, max-age=${maxAgeSeconds}`);
}

export function sharingRoutes(ctx: RouteContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/story/:storyId/share',
      { schema: { params: storyParamsSchema, body: shareBodySchema, response: { 201: shareResponseSchema } } },
      async (request, reply) => {
        const shared = await ctx.sharing.share(requireUserId(request), request.params.storyId, request.body.title);
        return reply.status(201).send(shared);
      },
    );

    app.get('/shared/:shareId', { schema: { params: shareParamsSchema, response: { 200: sharedStorySchema, 304: z.null() } } }, async (request, reply) => {
      if (!(await takeSharedRead(ctx, request))) throw tooManyRequests(SHARING_MESSAGES.tooManyReads, 60);
      const story = await ctx.sharing.read(request.params.shareId);
      const etag = etagFor(story);
      reply.header('etag', etag);
      setCaching(reply, story.shareId === SAMPLE_SHARE_ID ? SAMPLE_MAX_AGE_SECONDS : SHARED_MAX_AGE_SECONDS);
      if (matchesEtag(request, etag)) return reply.status(304).send(null);
      return story;
    });

    // A shared snapshot's pictures: public and immutable, like the link itself. Not counted
    // against the read limit: a gallery is many pictures for one read, and caches absorb repeats.
    app.get('/shared/:shareId/images/:file', { schema: { params: shareParamsSchema.extend({ file: z.string() }) } }, async (request, reply) => {
      const file = parseImageFile(request.params.file);
      const asset = file && (await ctx.sharing.sharedAsset(request.params.shareId, file.hash));
      if (!file || !asset) throw new AppError(404, ERROR_CODES.notFound, IMAGE_MESSAGES.imageNotFound);
      return sendAsset(request, reply, asset, file.thumbnail, 'public');
    });

    app.delete('/shared/:shareId', { schema: { params: shareParamsSchema, response: { 200: successSchema } } }, async (request) => {
      await ctx.sharing.stop(requireUserId(request), request.params.shareId);
      return { success: true as const };
    });
  };
}
