// The speech endpoints: a narrator reply's sentence spoken in a server voice (MP3, revalidated by
// ETag, the number of parts in X-Speech-Parts) and a voice recording transcribed to text. The
// recording is the API's one write that is not JSON: raw audio, its own parser, type and size limit.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireUserId } from '@server/http/plugins/session';
import {
  MAX_RECORDING_BYTES,
  RECORDING_MIME_TYPES,
  SPEECH_MESSAGES,
  SPEECH_PARTS_HEADER,
  speechPartParamsSchema,
  speechQuerySchema,
  transcriptionResponseSchema,
} from '@shared/schemas/speech';
import type { RouteContext } from '../context';
import { fromOwnApp } from '../own-app';
import { matchesEtag } from '../http-cache';

export function speechRoutes(ctx: RouteContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/story/:storyId/messages/:messageId/speech/:part',
      {
        schema: {
          summary: "A reply's sentence in a server voice (MP3)",
          params: speechPartParamsSchema,
          querystring: speechQuerySchema,
        },
      },
      async (request, reply) => {
        const userId = requireUserId(request);
        const part = await ctx.speech.locatePart(userId, request.params, request.query.voice);
        // Set on answers with audio (or its promise) only: an error must not carry the clip's ETag.
        // no-cache: the browser keeps the clip but asks each time, so a deleted story stops playing at once.
        const headers = {
          [SPEECH_PARTS_HEADER]: String(part.parts),
          etag: part.etag,
          'cache-control': 'private, no-cache',
          'x-content-type-options': 'nosniff',
        };
        if (matchesEtag(request, part.etag)) return reply.status(304).headers(headers).send();
        // HEAD tells the number of parts without paying for a clip.
        if (request.method === 'HEAD') return reply.headers(headers).type('audio/mpeg').send();
        const clip = await ctx.speech.clipFor(userId, part, fromOwnApp(request));
        return reply.headers(headers).type(clip.mime).send(clip.audio);
      },
    );

    // Scoped to this plugin: nowhere else in the API takes a raw body.
    app.addContentTypeParser(/^audio\//, { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

    app.post(
      '/speech/transcriptions',
      {
        bodyLimit: MAX_RECORDING_BYTES,
        config: {
          bodyTypes: { types: RECORDING_MIME_TYPES, message: SPEECH_MESSAGES.audioType },
          bodyTooLargeMessage: SPEECH_MESSAGES.audioTooLarge,
        },
        // Before the body is read: a visitor's or a disabled server's upload is refused without taking in 10 MB.
        onRequest: async (request) => {
          requireUserId(request);
          ctx.speech.requireTranscription();
        },
        schema: { summary: 'Transcribe a voice recording', response: { 200: transcriptionResponseSchema } },
      },
      async (request) => {
        const audio = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        return ctx.speech.transcribe(requireUserId(request), audio);
      },
    );
  };
}
