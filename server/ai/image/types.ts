// The one painter interface every image provider implements (builtin, OpenAI-compatible images,
// automatic1111 txt2img). A request carries the full text prompt for real models and the pieces
// the offline painter draws from; a provider either returns image bytes or throws an ImageError.
import type { ContentRating } from '@shared/schemas/preferences';
import type { StyleSheet } from '@shared/schemas/images';
import type { ImageProviderId } from '@server/kernel/config/image';

export { IMAGE_PROVIDERS, type ImageConfig, type ImageProviderId } from '@server/kernel/config/image';

export interface ImageRequest {
  /** The style sheet followed by the scene: what real models are sent. */
  prompt: string;
  /** What must not appear (content rating); sent where the provider takes one. */
  negativePrompt: string;
  /** The narrator reply being illustrated, and only it (the builtin painter reads it). */
  sceneText: string;
  styleSheet: StyleSheet;
  contentRating: ContentRating;
  /** The story's one seed, so its pictures share a look where the provider takes a seed. */
  seed: number;
  width: number;
  height: number;
  signal: AbortSignal;
}

export interface ImageResult {
  /** The raw bytes as the provider sent them (PNG, JPEG, WebP or GIF); checked before storing. */
  bytes: Uint8Array;
  /** Image tokens as the provider reported them; undefined where it reported none. */
  imageTokens: number | undefined;
}

export interface ImageProvider {
  readonly id: Exclude<ImageProviderId, 'none'>;
  readonly model: string;
  generate(request: ImageRequest): Promise<ImageResult>;
}

/**
 * Why a picture failed. `timeout`: no answer in IMAGE_TIMEOUT_MS; `unavailable`: network failure,
 * 5xx or 429; `misconfigured`: 401/403/404/400 (bad key, model or base URL); `invalid_output`: the
 * answer was not a usable image (garbage body, not an image, too large).
 */
export type ImageFailure = 'timeout' | 'unavailable' | 'misconfigured' | 'invalid_output';

export class ImageError extends Error {
  constructor(
    public readonly failure: ImageFailure,
    /** For the server log only: never sent to a client, never holds the key. */
    public readonly detail: string,
    options?: { cause?: unknown },
  ) {
    super(`image ${failure}: ${detail}`, options);
    this.name = 'ImageError';
  }
}
