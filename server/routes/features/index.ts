// GET /api/features (public): what this server offers, so the SPA shows only what can work:
// pictures (IMAGE_PROVIDER), server voices and transcription (TTS_/STT_PROVIDER) and ads.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { featuresResponseSchema } from '@shared/schemas/features';
import type { RouteContext } from '../context';

export function featuresRoutes(ctx: RouteContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/features', { schema: { response: { 200: featuresResponseSchema } } }, async () => ({
      images: ctx.images.enabled,
      // Filled in by the speech and ads configuration (issue 9).
      speech: { voices: [], transcription: false },
      ads: { enabled: true, sponsorUrl: null },
    }));
  };
}
