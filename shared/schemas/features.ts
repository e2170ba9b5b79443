// GET /api/features: what this server offers, so the client shows only what can work. Public (the
// loading screen's ad shows before the session is known). Read once per page load; a failed read
// counts as "nothing optional", so a broken call never shows controls that cannot work.
import { z } from 'zod';

export const featuresResponseSchema = z.object({
  /** False when the operator switched pictures off (IMAGE_PROVIDER=none). */
  images: z.boolean(),
  speech: z.object({
    /** Server voices (TTS_VOICES) offered beside the browser's own; empty when TTS_PROVIDER is unset. */
    voices: z.array(z.string()),
    /** True when STT_PROVIDER is set: the microphone records and the server transcribes. */
    transcription: z.boolean(),
  }),
  ads: z.object({
    /** ADS_ENABLED=false removes ads everywhere. */
    enabled: z.boolean(),
    /** AD_SPONSOR_URL; null means the house ad for the in-app 'Support Taleweaver' page. */
    sponsorUrl: z.string().nullable(),
  }),
});
export type FeaturesResponse = z.infer<typeof featuresResponseSchema>;

/** What a client assumes when the call fails: nothing optional. */
export const NO_FEATURES: FeaturesResponse = {
  images: false,
  speech: { voices: [], transcription: false },
  ads: { enabled: false, sponsorUrl: null },
};
