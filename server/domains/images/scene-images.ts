// What every scene-picture use case shares: the URLs a stored picture is served at, a picture's
// record as the API's SceneImage, and the two 404s (a message or picture that is not the caller's,
// and pictures switched off) so each use case refuses in the same words.
import type { SceneImageRecord } from '@server/db/repositories/images';
import { DomainError } from '@server/kernel/errors';
import { ERROR_CODES } from '@shared/schemas/common';
import { IMAGE_MESSAGES, type SceneImage } from '@shared/schemas/images';
import { altFromScene } from './scene-prompt';

export const imageUrl = (hash: string) => `/api/images/${hash}.webp`;
export const thumbnailUrl = (hash: string) => `/api/images/${hash}.thumb.webp`;

export const notFound = (message: string = IMAGE_MESSAGES.messageNotFound) =>
  new DomainError('notFound', ERROR_CODES.notFound, message);
/** Pictures switched off answer as a picture that is not there (the API's 404), with their own code. */
export const imagesDisabled = () => new DomainError('notFound', ERROR_CODES.imagesDisabled, IMAGE_MESSAGES.disabled);

export function toSceneImage(record: SceneImageRecord): SceneImage {
  const base = { messageId: record.messageId, status: record.status, alt: altFromScene(record.scene) };
  if (record.status === 'ready' && record.assetHash) {
    return {
      ...base,
      url: imageUrl(record.assetHash),
      thumbnail: thumbnailUrl(record.assetHash),
      width: record.width ?? undefined,
      height: record.height ?? undefined,
    };
  }
  return record.status === 'failed' ? { ...base, error: record.error ?? IMAGE_MESSAGES.failed } : base;
}
