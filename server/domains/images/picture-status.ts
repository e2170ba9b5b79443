// A picture's state for the player's poll: ready, failed with its reason, or still painting. A poll
// for a picture being painted waits a moment for it (a short long-poll), woken at once by this
// instance's paint jobs and re-reading the row for the jobs of other instances, so the client polls
// seldom yet shows the picture as soon as it is stored.
import { EventEmitter } from 'node:events';
import type { Repositories } from '@server/db/repositories';
import { DomainError } from '@server/kernel/errors';
import { ERROR_CODES } from '@shared/schemas/common';
import { IMAGE_MESSAGES, type MessageImageResponse } from '@shared/schemas/images';
import { imageUrl, notFound, thumbnailUrl } from './scene-images';
import { altFromScene } from './scene-prompt';

/** How long a poll for a picture still being painted waits for it before answering 404. */
export const IMAGE_POLL_WAIT_MS = 1500;
const POLL_RECHECK_MS = 250;

/** Where this instance's paint jobs tell its waiting polls that a picture settled (ready or failed). */
export function createSettledPictures() {
  const settled = new EventEmitter().setMaxListeners(0);
  const event = (messageId: number) => `settled:${messageId}`;
  return {
    settle(messageId: number): void {
      settled.emit(event(messageId));
    },
    /** True when the picture settled here within `ms`; false when the time ran out. */
    wake(messageId: number, ms: number): Promise<boolean> {
      return new Promise<boolean>((resolve) => {
        const onSettled = () => {
          clearTimeout(timer);
          resolve(true);
        };
        const timer = setTimeout(() => {
          settled.off(event(messageId), onSettled);
          resolve(false);
        }, ms);
        settled.once(event(messageId), onSettled);
      });
    },
  };
}
export type SettledPictures = ReturnType<typeof createSettledPictures>;

interface StatusDeps {
  repos: Pick<Repositories, 'images'>;
  settled: SettledPictures;
}

/** Waits (briefly) for a pending picture to settle: woken by this instance's jobs, re-read for other instances'. */
async function waitForSettled({ repos, settled }: StatusDeps, messageId: number, waitMs: number): Promise<void> {
  const deadline = Date.now() + waitMs;
  while (Date.now() < deadline) {
    if (await settled.wake(messageId, Math.min(POLL_RECHECK_MS, deadline - Date.now()))) return;
    if ((await repos.images.findByMessage(messageId))?.status !== 'pending') return;
  }
}

/** GET …/message/{id}/image: 200 when ready, 404 while painting (after a short wait) or when none, 422 with the reason when it failed. */
export async function pictureStatus(
  deps: StatusDeps,
  userId: number,
  messageId: number,
  waitMs: number,
): Promise<MessageImageResponse> {
  let image = await deps.repos.images.findByMessage(messageId);
  if (!image || image.userId !== userId) throw notFound(IMAGE_MESSAGES.noImage);
  if (image.status === 'pending' && waitMs > 0) {
    await waitForSettled(deps, messageId, waitMs);
    image = (await deps.repos.images.findByMessage(messageId)) ?? image;
  }
  if (image.status === 'failed')
    throw new DomainError('failedEarlier', ERROR_CODES.imageFailed, image.error ?? IMAGE_MESSAGES.failed);
  if (image.status !== 'ready' || !image.assetHash)
    throw new DomainError('notFound', ERROR_CODES.imagePending, IMAGE_MESSAGES.notReady);
  return {
    image: imageUrl(image.assetHash),
    thumbnail: thumbnailUrl(image.assetHash),
    alt: altFromScene(image.scene),
    width: image.width ?? 1,
    height: image.height ?? 1,
  };
}
