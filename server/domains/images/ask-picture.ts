// Asking for a reply's picture, the one write use case of scene pictures: on demand (the player's
// 'generate' button) or for every new reply when the player has pictures on. An ask joins the
// picture already there or being painted, else it is a paid call: the player's month is checked and
// their hour counted before the pending row is written and its job sent, so a refused ask leaves
// nothing behind and the painting itself runs later, in a job (paint-job.ts).
import type { Repositories } from '@server/db/repositories';
import type { SceneImageRecord } from '@server/db/repositories/images';
import { DomainError } from '@server/kernel/errors';
import type { Log } from '@server/kernel/log';
import { IMAGE_MESSAGES, type GenerateImageResponse } from '@shared/schemas/images';
import type { Allowance } from '../limits/allowance';
import { imageUrl, notFound } from './scene-images';
import { sceneFromReply } from './scene-prompt';

export interface AskDeps {
  repos: Pick<Repositories, 'images' | 'stories'>;
  allowance: Pick<Allowance, 'checkMonth' | 'takeHour'>;
  /** Sends a new pending picture's paint job; throws when the workers are not running. */
  enqueue: (image: SceneImageRecord) => Promise<void>;
  now: () => Date;
}

/** Starts (or joins) the picture of one of the owner's narrator replies. */
export async function askForPicture(
  deps: AskDeps,
  userId: number,
  storyId: number,
  messageId: number,
): Promise<GenerateImageResponse> {
  const { repos } = deps;
  const message = await repos.images.findReply(userId, storyId, messageId);
  if (!message || message.role !== 'assistant') throw notFound();
  const existing = await repos.images.findByMessage(messageId);
  if (existing?.status === 'ready' && existing.assetHash)
    return { imageMessageId: messageId, image: imageUrl(existing.assetHash) };
  if (existing?.status === 'pending') return { imageMessageId: messageId };
  // Checks the player's month and counts one ask against their hour; throws the 429 the player reads.
  await deps.allowance.checkMonth(userId);
  await deps.allowance.takeHour(userId, 'image');
  const image = await repos.images.request({
    userId,
    storyId,
    messageId,
    scene: sceneFromReply(message.content),
    now: deps.now(),
  });
  // Null: another ask got there first; its job serves this one too.
  if (image) {
    try {
      await deps.enqueue(image);
    } catch (error) {
      await repos.images.fail(image.id, IMAGE_MESSAGES.failed, deps.now());
      throw error;
    }
  }
  return { imageMessageId: messageId };
}

/** The player's own ask: for a reply of a story of theirs, a 404 for any other. */
export async function generatePicture(
  deps: AskDeps,
  userId: number,
  messageId: number,
  storyId: number,
): Promise<GenerateImageResponse> {
  if (!(await deps.repos.stories.findOwned(storyId, userId))) throw notFound(IMAGE_MESSAGES.storyNotInitialized);
  return askForPicture(deps, userId, storyId, messageId);
}

/**
 * A new reply's picture. Never throws: a refused ask (limit, allowance) comes back as the reason to
 * show, and the reply itself is never held back.
 */
export async function illustrateReply(
  deps: AskDeps & { flush: () => Promise<void>; log: Log },
  userId: number,
  storyId: number,
  messageId: number,
): Promise<{ imageMessageId?: number; imageError?: string }> {
  try {
    const { imageMessageId } = await askForPicture(deps, userId, storyId, messageId);
    // The reply's `done` is about to promise this picture: its job must be durable first.
    await deps.flush();
    return { imageMessageId };
  } catch (error) {
    if (error instanceof DomainError) return { imageError: error.message };
    deps.log.error({ err: error, storyId, messageId }, 'could not ask for a scene image');
    return { imageError: IMAGE_MESSAGES.failed };
  }
}
