// Sharing endpoints: POST /api/story/:storyId/share (owner), DELETE
// /api/shared/:shareId (owner) and the public GET /api/shared/:shareId and its pictures. Public reads
// are limited per IP, story reads and pictures each in a bucket of their own (counted in memory or
// Redis, never in the database), and cacheable: a snapshot never changes, so
// its ETag holds until the owner stops sharing, and a short max-age bounds how long a stopped link
// can linger in caches. The answer's bytes (plain, brotli or gzip) and ETag come ready-made from the
// sharing service's cache, so a read (or a 304) usually touches neither the database, nor the JSON
// serialiser, nor a compressor. These reads are not logged one by one at info level: a popular story
// brings thousands a second, and two log lines each would cost more than the answer; errors are.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { PublishedShare } from '@server/http/presenters/shared-story-cache';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ERROR_CODES, successSchema } from '@shared/schemas/common';
import { IMAGE_MESSAGES } from '@shared/schemas/images';
import { DomainError, tooManyRequests } from '@server/kernel/errors';
import { parseImageFile, sendAsset } from '../images';
import {
  SAMPLE_SHARE_ID,
  SHARING_MESSAGES,
  shareBodySchema,
  shareParamsSchema,
  shareResponseSchema,
  sharedStorySchema,
} from '@shared/schemas/sharing';
import { storyParamsSchema } from '@shared/schemas/story';
import { requireUserId } from '@server/http/plugins/session';
import { ipKey, type Limit } from '@server/domains/limits/request-limits';
import type { RouteContext } from '../context';
import { matchesEtag } from '../http-cache';

export const SHARED_MAX_AGE_SECONDS = 60;
export const SAMPLE_MAX_AGE_SECONDS = 3600;

type Encoding = 'br' | 'gzip';
const encodingChoices = new Map<string, Encoding | null>();

/**
 * The encoding to send for an Accept-Encoding header: br or gzip, whichever has the higher q (br on
 * a tie, as @fastify/compress chooses), or null for the plain bytes. Browsers send a handful of
 * distinct headers, so answers are remembered (a few dozen at most).
 */
export function preferredEncoding(header: string | undefined): Encoding | null {
  if (!header) return null;
  const known = encodingChoices.get(header);
  if (known !== undefined) return known;
  const weights: Record<string, number> = {};
  for (const part of header.toLowerCase().split(',')) {
    const [name, ...params] = part.split(';').map((piece) => piece.trim());
    const q = params.find((param) => param.startsWith('q='));
    const weight = q ? Number(q.slice(2)) : 1;
    if (name && weight >= 0 && weight <= 1) weights[name] = weight;
  }
  const br = weights.br ?? weights['*'] ?? 0;
  const gzip = weights.gzip ?? weights['*'] ?? 0;
  const choice = br > 0 && br >= gzip ? 'br' : gzip > 0 ? 'gzip' : null;
  if (encodingChoices.size >= 64) encodingChoices.clear();
  encodingChoices.set(header, choice);
  return choice;
}

export function sharedReadLimit(ctx: RouteContext): Limit {
  return { bucket: 'shared-read-ip', max: ctx.config.sharedReadsPerMinute, windowMs: 60_000 };
}

/** Shared pictures have a bucket of their own: one page of a long story shows many of them. */
export function sharedPictureLimit(ctx: RouteContext): Limit {
  return { bucket: 'shared-picture-ip', max: ctx.config.sharedPicturesPerMinute, windowMs: 60_000 };
}

/** Counts one public read for the caller's IP; false when the IP has used up its reads. */
export function takeSharedRead(ctx: RouteContext, request: FastifyRequest): boolean | Promise<boolean> {
  return ctx.requestLimiter.allow(sharedReadLimit(ctx), ipKey(request.ip));
}

/** The owner's calls: share a story, stop sharing it. They need the session (registered with the account hooks). */
export function sharingRoutes(ctx: RouteContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/story/:storyId/share',
      {
        schema: {
          summary: 'Share a story: a public, read-only snapshot',
          params: storyParamsSchema,
          body: shareBodySchema,
          response: { 201: shareResponseSchema },
        },
      },
      async (request, reply) => {
        const shared = await ctx.sharing.share(requireUserId(request), request.params.storyId, request.body.title);
        return reply.status(201).send(shared);
      },
    );

    app.delete(
      '/shared/:shareId',
      { schema: { summary: 'Stop sharing a story', params: shareParamsSchema, response: { 200: successSchema } } },
      async (request) => {
        await ctx.sharing.stop(requireUserId(request), request.params.shareId);
        return { success: true as const };
      },
    );
  };
}

/**
 * The public reads: a shared snapshot and its pictures. Anonymous and identical for everyone, so
 * they are registered outside the account hooks (cookies, sessions, on-the-fly compression, the
 * write flush): a viral link's reads pay for none of them, and no session cookie can ride along.
 */
export function publicSharingRoutes(ctx: RouteContext): FastifyPluginAsyncZod {
  return async (app) => {
    const readOptions = {
      logLevel: 'warn' as const,
      schema: {
        summary: 'A shared story (public)',
        params: shareParamsSchema,
        response: { 200: sharedStorySchema, 304: z.void() },
      },
    };
    function answer(request: FastifyRequest, reply: FastifyReply, shared: PublishedShare): void {
      reply.header('etag', shared.etag);
      const maxAge = shared.story.shareId === SAMPLE_SHARE_ID ? SAMPLE_MAX_AGE_SECONDS : SHARED_MAX_AGE_SECONDS;
      reply.header('cache-control', `public, max-age=${maxAge}`);
      if (shared.encoded) reply.header('vary', 'accept-encoding');
      // No payload at all: a 304 has no body, and sending null would serialise one ("null").
      if (matchesEtag(request, shared.etag)) {
        reply.status(304).send();
        return;
      }
      const encoding = shared.encoded && preferredEncoding(request.headers['accept-encoding']);
      if (encoding) reply.header('content-encoding', encoding);
      // Already JSON (checked against sharedStorySchema when it was cached): sent as the bytes they are.
      reply.type('application/json; charset=utf-8').send(encoding ? shared.encoded![encoding] : shared.body);
    }
    async function answerLater(
      request: FastifyRequest,
      reply: FastifyReply,
      shareId: string,
      allowed: Promise<boolean> | boolean,
    ): Promise<void> {
      if (!(await allowed)) throw tooManyRequests(SHARING_MESSAGES.tooManyReads, 60);
      answer(request, reply, await ctx.sharing.published(shareId));
    }
    // The usual read (counted in this process, the snapshot in memory) is answered at once: no
    // promise between the request and its bytes. Redis, or a snapshot to load, take the async way.
    app.get('/shared/:shareId', readOptions, (request, reply) => {
      const allowed = takeSharedRead(ctx, request);
      if (allowed === false) throw tooManyRequests(SHARING_MESSAGES.tooManyReads, 60);
      const shared = allowed === true ? ctx.sharing.publishedNow(request.params.shareId) : undefined;
      return shared ? answer(request, reply, shared) : answerLater(request, reply, request.params.shareId, allowed);
    });

    // A shared snapshot's pictures: public, counted per IP in a bucket of their own (a gallery is
    // many pictures for one read of the story, and must not use up the story reads, nor they it).
    // Cached as briefly as the snapshot, not for a year: a stopped share stops showing them once
    // that minute is over (the ETag keeps a revalidation to a 304).
    app.get(
      '/shared/:shareId/images/:file',
      {
        schema: {
          summary: "A shared story's picture (public)",
          params: shareParamsSchema.extend({ file: z.string() }),
        },
      },
      async (request, reply) => {
        if (!(await ctx.requestLimiter.allow(sharedPictureLimit(ctx), ipKey(request.ip))))
          throw tooManyRequests(SHARING_MESSAGES.tooManyPictures, 60);
        const file = parseImageFile(request.params.file);
        const asset = file && (await ctx.sharing.sharedAsset(request.params.shareId, file.hash));
        if (!file || !asset) throw new DomainError('notFound', ERROR_CODES.notFound, IMAGE_MESSAGES.imageNotFound);
        return sendAsset(request, reply, asset, file.thumbnail, `public, max-age=${SHARED_MAX_AGE_SECONDS}`);
      },
    );
  };
}
