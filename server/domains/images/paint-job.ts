// One scene-image job: take the pending picture, build its prompt (style sheet + the reply it
// illustrates), ask the painter, check and store what comes back, count it in the usage ledger.
// A job runs at most twice: a run that fails for a passing reason (timeout, provider down) or that
// dies with its process is retried once; after that, or for a reason a retry cannot mend (bad key,
// not an image), the picture is marked failed with the reason the player reads.
import { toStoredImage } from '@server/ai/image/stored-image';
import { negativePromptFor } from '@server/ai/image/style-heuristics';
import { ImageError, type ImageConfig, type ImageFailure, type ImageProvider } from '@server/ai/image/types';
import type { Repositories } from '@server/db/repositories';
import type { SceneImageRecord } from '@server/db/repositories/images';
import type { StoryRecord } from '@server/db/repositories/stories';
import type { ContentRating } from '@shared/schemas/preferences';
import { IMAGE_MESSAGES } from '@shared/schemas/images';
import { DomainError } from '@server/kernel/errors';
import type { Allowance } from '../limits/allowance';
import type { PreferencesSource } from '../preferences/preferences';
import type { Log } from '@server/kernel/log';
import { redact } from '@server/kernel/redact';
import { buildScenePrompt } from './scene-prompt';
import type { StyleSheets } from './style-sheet';

export const SCENE_IMAGE_QUEUE = 'scene-image';
/** Runs of one job: the first and one retry. */
export const MAX_JOB_RUNS = 2;
/**
 * Image tokens counted for a picture whose provider reports no usage (builtin, DALL·E, automatic1111):
 * 1,000 tokens is $0.02 at the spec's image rate ($0.00002 a token), the price of one standard
 * 1024px picture from a hosted model, so the admin's cost estimate stays honest.
 */
export const IMAGE_TOKENS_PER_PICTURE = 1000;

export interface SceneImageJob {
  sceneImageId: number;
}

const REASONS: Record<ImageFailure, string> = {
  timeout: IMAGE_MESSAGES.timedOut,
  unavailable: IMAGE_MESSAGES.unavailable,
  // A bad key, model or address: the player gets the spec's words, the log the provider's.
  misconfigured: IMAGE_MESSAGES.failed,
  invalid_output: IMAGE_MESSAGES.notAnImage,
};
const RETRYABLE = new Set<ImageFailure>(['timeout', 'unavailable']);

export interface PaintDeps {
  repos: Repositories;
  painter: ImageProvider;
  config: ImageConfig;
  styleSheets: StyleSheets;
  /** The picture's cost is reserved from the player's month when it is painted (the hour was counted when it was asked for). */
  allowance: Pick<Allowance, 'reserve'>;
  preferences: PreferencesSource;
  now: () => Date;
  flush: () => Promise<void>;
  log: Log;
  /** Told when a picture is settled (ready or failed), so waiting polls answer at once. */
  onSettled: (messageId: number) => void;
  /** Told when a picture is marked failed (the app's metrics count them). */
  onFailed?: () => void;
}

export function createPaintJob(deps: PaintDeps) {
  const { repos, painter, config } = deps;

  async function fail(id: number, messageId: number, reason: string) {
    await repos.images.fail(id, reason, deps.now());
    await deps.flush();
    deps.onFailed?.();
    deps.onSettled(messageId);
  }

  /** Paints the picture, stores it and its usage row together, and tells the waiting polls. */
  async function paintWith(image: SceneImageRecord, story: StoryRecord, contentRating: ContentRating): Promise<void> {
    const sheet = await deps.styleSheets.forScene({
      userId: image.userId,
      storyId: story.id,
      premise: story.premise,
      scene: image.scene,
      rating: contentRating,
      messageId: image.messageId,
    });
    const result = await painter.generate({
      prompt: buildScenePrompt(sheet, image.scene),
      negativePrompt: negativePromptFor(contentRating),
      sceneText: image.scene,
      styleSheet: { artStyle: sheet.artStyle, player: sheet.player, characters: sheet.characters },
      contentRating,
      seed: sheet.seed,
      width: config.width,
      height: config.height,
      signal: AbortSignal.timeout(config.timeoutMs),
    });
    const asset = await toStoredImage(result.bytes);
    const now = deps.now();
    const usage = {
      userId: image.userId,
      storyId: story.id,
      messageId: image.messageId,
      kind: 'image' as const,
      provider: painter.id,
      model: painter.model,
      imageTokens: result.imageTokens ?? IMAGE_TOKENS_PER_PICTURE,
      createdAt: now,
    };
    await repos.images.complete(image.id, asset, usage, now);
    await deps.flush();
    deps.onSettled(image.messageId);
  }

  /** Throws only to ask the queue for the one retry. */
  return async function paint(job: SceneImageJob): Promise<void> {
    const image = await repos.images.claim(job.sceneImageId, deps.now());
    if (!image) return; // settled already, or its message was replaced
    if (image.attempts > MAX_JOB_RUNS) return fail(image.id, image.messageId, IMAGE_MESSAGES.interrupted);
    try {
      const story = await repos.stories.findOwned(image.storyId, image.userId);
      if (!story) return;
      const { contentRating } = await deps.preferences.get(image.userId);
      let hold;
      try {
        hold = await deps.allowance.reserve(image.userId, 'image', IMAGE_TOKENS_PER_PICTURE);
      } catch (error) {
        // Spent since it was asked for (a turn or another picture got there first): the player reads why.
        if (error instanceof DomainError) return fail(image.id, image.messageId, error.message);
        throw error;
      }
      try {
        await paintWith(image, story, contentRating);
      } finally {
        await hold.release();
      }
    } catch (error) {
      if (!(error instanceof ImageError)) {
        if (image.attempts >= MAX_JOB_RUNS) return fail(image.id, image.messageId, IMAGE_MESSAGES.failed);
        throw error;
      }
      deps.log.warn(
        {
          sceneImageId: image.id,
          provider: painter.id,
          model: painter.model,
          failure: error.failure,
          detail: redact(error.detail, [config.apiKey]),
          run: image.attempts,
        },
        'scene image failed',
      );
      if (RETRYABLE.has(error.failure) && image.attempts < MAX_JOB_RUNS) throw new Error(`retrying: ${error.failure}`);
      const reason =
        error.failure === 'invalid_output' && /too large|bytes/i.test(error.detail)
          ? IMAGE_MESSAGES.tooLarge
          : REASONS[error.failure];
      return fail(image.id, image.messageId, reason);
    }
  };
}
