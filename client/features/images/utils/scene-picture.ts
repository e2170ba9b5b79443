// Conversions from the server's picture shapes (story reads' `images`, the poll's answer) to the
// client's ScenePicture, and the zod schema that reads one back from local storage.
import { z } from 'zod';
import type { MessageImageResponse, SceneImage } from '@shared/schemas/images';
import { IMAGES_STRINGS } from '../strings';
import type { ReadyPicture, ScenePicture } from '../types';

/** A story read's entry; a 'ready' one without a URL cannot be shown and counts as still pending. */
export function toScenePicture(image: SceneImage): ScenePicture {
  if (image.status === 'ready' && image.url) {
    return {
      status: 'ready',
      url: image.url,
      thumbnail: image.thumbnail,
      alt: image.alt,
      width: image.width,
      height: image.height,
    };
  }
  if (image.status === 'failed')
    return { status: 'failed', reason: image.error?.trim() || IMAGES_STRINGS.generationFailed };
  return { status: 'pending' };
}

export function fromMessageImage(image: MessageImageResponse): ReadyPicture {
  return {
    status: 'ready',
    url: image.image,
    thumbnail: image.thumbnail,
    alt: image.alt,
    width: image.width,
    height: image.height,
  };
}

export const scenePictureSchema: z.ZodType<ScenePicture> = z.discriminatedUnion('status', [
  z.object({ status: z.literal('pending'), stalled: z.boolean().optional() }),
  z.object({
    status: z.literal('ready'),
    url: z.string().min(1),
    thumbnail: z.string().optional(),
    alt: z.string(),
    width: z.number().optional(),
    height: z.number().optional(),
  }),
  z.object({ status: z.literal('failed'), reason: z.string() }),
]);
