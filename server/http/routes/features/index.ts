// GET /api/features (public): what this server offers, so the SPA shows only what can work:
// pictures (IMAGE_PROVIDER), server voices and transcription (TTS_/STT_PROVIDER) and ads.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { featuresResponseSchema } from '@shared/schemas/features';
import type { RouteContext } from '../context';

export function featuresRoutes(ctx: RouteContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/features',
      {
        schema: {
          summary: 'What this server offers (pictures, voices, ads)',
          response: { 200: featuresResponseSchema },
        },
      },
      async () => ({
        images: ctx.images.enabled,
        // Names and switches only: provider keys and base URLs never leave the server.
        speech: { voices: ctx.speech.voices, transcription: ctx.speech.transcription },
        ads: { enabled: ctx.config.ads.enabled, sponsorUrl: ctx.config.ads.sponsorUrl },
      }),
    );
  };
}
