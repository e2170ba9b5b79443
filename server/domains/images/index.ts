// Scene images: asking for a message's picture (on demand, or for every
// new reply when the player has pictures on), reading its state, the story's pictures for story
// reads, serving stored bytes to their owner, and the style sheet API. The painting itself runs
// behind, as a durable job (paint-job.ts). Everything is the owner's only: another user's story,
// message or picture answers 404 like a missing one.
import { EventEmitter } from 'node:events';
import type { ImageConfig, ImageProvider } from '@server/ai/image/types';
import type { NarratorProvider } from '@server/ai/llm/types';
import type { Repositories } from '@server/db/repositories';
import type { SceneImageRecord, StoredAsset, VisualsRecord } from '@server/db/repositories/images';
import { AppError } from '@server/kernel/errors';
import type { JobQueue } from '@server/jobs/queue';
import { ERROR_CODES } from '@shared/schemas/common';
import {
  IMAGE_MESSAGES,
  type GenerateImageResponse,
  type MessageImageResponse,
  type SceneImage,
  type StyleSheet,
  type StyleSheetResponse,
} from '@shared/schemas/images';
import { STORY_MESSAGES } from '@shared/schemas/story';
import type { PreferencesSource } from '../preferences/preferences';
import type { Allowance } from '../limits/allowance';
import type { Log } from '@server/kernel/log';
import type { Metrics } from '@server/kernel/metrics';
import { createPaintJob, MAX_JOB_RUNS, SCENE_IMAGE_QUEUE, type SceneImageJob } from './paint-job';
import { altFromScene, sceneFromReply } from './scene-prompt';
import { createStyleSheets, newSheetSeed } from './style-sheet';

export interface ImageServiceDeps {
  repos: Repositories;
  config: ImageConfig;
  /** Null when IMAGE_PROVIDER=none: every image call answers 404 and nothing shows. */
  painter: ImageProvider | null;
  narrator: NarratorProvider;
  /** A picture is a paid call: the player's hour when asked, their month when asked and again when painted. */
  allowance: Allowance;
  preferences: PreferencesSource;
  now: () => Date;
  flush: () => Promise<void>;
  log: Log;
  /** The app's metrics: picture jobs running here, failed, and waiting in the queue. */
  metrics?: Pick<Metrics, 'pictureJobStarted' | 'pictureJobEnded' | 'pictureFailed' | 'watchPictureQueue'>;
}

/** How long a poll for a picture still being painted waits for it before answering 404. */
export const IMAGE_POLL_WAIT_MS = 1500;
const POLL_RECHECK_MS = 250;
/** A pending picture untouched this long with no job behind it lost its job to a crash: send it again. */
const ORPHAN_AFTER_MS = 60_000;

export const imageUrl = (hash: string) => `/api/images/${hash}.webp`;
export const thumbnailUrl = (hash: string) => `/api/images/${hash}.thumb.webp`;

const notFound = (message: string = IMAGE_MESSAGES.messageNotFound) => new AppError(404, ERROR_CODES.notFound, message);
const disabled = () => new AppError(404, ERROR_CODES.imagesDisabled, IMAGE_MESSAGES.disabled);

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

const toStyleSheetResponse = (sheet: VisualsRecord): StyleSheetResponse => ({
  artStyle: sheet.artStyle,
  player: sheet.player,
  characters: sheet.characters,
  seed: sheet.seed,
  updatedAt: sheet.updatedAt.toISOString(),
});

export function createImageService(deps: ImageServiceDeps) {
  const { repos, painter } = deps;
  const settled = new EventEmitter().setMaxListeners(0);
  const styleSheets = createStyleSheets({
    repos,
    narrator: deps.narrator,
    allowance: deps.allowance,
    now: deps.now,
    log: deps.log,
  });
  let queue: JobQueue | null = null;
  let sweepTimer: NodeJS.Timeout | null = null;

  function requirePainter(): ImageProvider {
    if (!painter) throw disabled();
    return painter;
  }

  async function enqueue(image: SceneImageRecord): Promise<void> {
    if (!queue) throw new Error('the image queue is not running');
    await queue.send<SceneImageJob>(SCENE_IMAGE_QUEUE, { sceneImageId: image.id });
  }

  /** Checks the player's month and counts one ask against their hour; throws the 429 the player reads. */
  async function checkLimits(userId: number): Promise<void> {
    await deps.allowance.checkMonth(userId);
    await deps.allowance.takeHour(userId, 'image');
  }

  /** Starts (or joins) the picture of one of the owner's narrator replies. */
  async function ask(userId: number, storyId: number, messageId: number): Promise<GenerateImageResponse> {
    requirePainter();
    const message = await repos.images.findReply(userId, storyId, messageId);
    if (!message || message.role !== 'assistant') throw notFound();
    const existing = await repos.images.findByMessage(messageId);
    if (existing?.status === 'ready' && existing.assetHash)
      return { imageMessageId: messageId, image: imageUrl(existing.assetHash) };
    if (existing?.status === 'pending') return { imageMessageId: messageId };
    await checkLimits(userId);
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
        await enqueue(image);
      } catch (error) {
        await repos.images.fail(image.id, IMAGE_MESSAGES.failed, deps.now());
        throw error;
      }
    }
    return { imageMessageId: messageId };
  }

  /** Waits (briefly) for a pending picture to settle: woken by this instance's jobs, re-read for other instances'. */
  async function waitForSettled(messageId: number, waitMs: number): Promise<void> {
    const deadline = Date.now() + waitMs;
    const event = `settled:${messageId}`;
    while (Date.now() < deadline) {
      const woken = await new Promise<boolean>((resolve) => {
        const onSettled = () => {
          clearTimeout(timer);
          resolve(true);
        };
        const timer = setTimeout(
          () => {
            settled.off(event, onSettled);
            resolve(false);
          },
          Math.min(POLL_RECHECK_MS, deadline - Date.now()),
        );
        settled.once(event, onSettled);
      });
      if (woken) return;
      if ((await repos.images.findByMessage(messageId))?.status !== 'pending') return;
    }
  }

  return {
    enabled: painter !== null,

    /** POST …/generate-image and …/generate-initial-image: the job is accepted; the answer comes at once. */
    async generate(userId: number, messageId: number, body: { storyId: number }): Promise<GenerateImageResponse> {
      requirePainter();
      if (!(await repos.stories.findOwned(body.storyId, userId))) throw notFound(IMAGE_MESSAGES.storyNotInitialized);
      return ask(userId, body.storyId, messageId);
    },

    /**
     * A new reply's picture (the player has pictures on: the caller read the preference). Never throws: a refused ask (limit,
     * allowance) comes back as the reason to show, and the reply itself is never held back.
     */
    async illustrateReply(
      userId: number,
      storyId: number,
      messageId: number,
    ): Promise<{ imageMessageId?: number; imageError?: string }> {
      if (!painter) return {};
      try {
        const { imageMessageId } = await ask(userId, storyId, messageId);
        // The reply's `done` is about to promise this picture: its job must be durable first.
        await deps.flush();
        return { imageMessageId };
      } catch (error) {
        if (error instanceof AppError) return { imageError: error.message };
        deps.log.error({ err: error, storyId, messageId }, 'could not ask for a scene image');
        return { imageError: IMAGE_MESSAGES.failed };
      }
    },

    /** GET …/message/{id}/image: 200 when ready, 404 while painting (after a short wait) or when none, 422 with the reason when it failed. */
    async status(userId: number, messageId: number, waitMs = IMAGE_POLL_WAIT_MS): Promise<MessageImageResponse> {
      requirePainter();
      let image = await repos.images.findByMessage(messageId);
      if (!image || image.userId !== userId) throw notFound(IMAGE_MESSAGES.noImage);
      if (image.status === 'pending' && waitMs > 0) {
        await waitForSettled(messageId, waitMs);
        image = (await repos.images.findByMessage(messageId)) ?? image;
      }
      if (image.status === 'failed')
        throw new AppError(422, ERROR_CODES.imageFailed, image.error ?? IMAGE_MESSAGES.failed);
      if (image.status !== 'ready' || !image.assetHash)
        throw new AppError(404, ERROR_CODES.imagePending, IMAGE_MESSAGES.notReady);
      return {
        image: imageUrl(image.assetHash),
        thumbnail: thumbnailUrl(image.assetHash),
        alt: altFromScene(image.scene),
        width: image.width ?? 1,
        height: image.height ?? 1,
      };
    },

    /** A story's pictures for its reads, and its header picture (the first ready one). */
    async forStory(
      storyId: number,
    ): Promise<{ images: SceneImage[]; storyImage: string | null; byMessage: Map<number, string> }> {
      if (!painter) return { images: [], storyImage: null, byMessage: new Map() };
      const images = (await repos.images.listForStory(storyId)).map(toSceneImage);
      const byMessage = new Map(images.filter((i) => i.url).map((i) => [i.messageId, i.url as string]));
      return { images, storyImage: images.find((i) => i.url)?.url ?? null, byMessage };
    },

    /** A stored picture for its owner; null when the hash is unknown or not theirs. */
    async ownerAsset(userId: number, hash: string): Promise<StoredAsset | null> {
      return repos.images.assetForOwner(hash, userId);
    },

    /**
     * The story's style sheet. The first look fills it from the premise (a narrator call), so the owner
     * sees what pictures will follow; `mayPay` false (a GET another site's page could have made) makes
     * no call and writes nothing: it answers the stored sheet, or the offline heuristics' one unsaved.
     */
    async styleSheet(userId: number, storyId: number, mayPay: boolean): Promise<StyleSheetResponse> {
      requirePainter();
      const story = await repos.stories.findOwned(storyId, userId);
      if (!story) throw new AppError(404, ERROR_CODES.notFound, STORY_MESSAGES.storyNotFound);
      const { contentRating } = await deps.preferences.get(userId);
      const opening = (await repos.stories.firstReply(storyId))?.content ?? '';
      return toStyleSheetResponse(
        await styleSheets.current(
          { userId, storyId, premise: story.premise, scene: sceneFromReply(opening), rating: contentRating },
          mayPay,
        ),
      );
    },

    /** The owner's edit: kept as it is (a sheet not filled yet starts from it, with its own seed); no narrator call. */
    async saveStyleSheet(userId: number, storyId: number, sheet: StyleSheet): Promise<StyleSheetResponse> {
      requirePainter();
      if (!(await repos.stories.findOwned(storyId, userId)))
        throw new AppError(404, ERROR_CODES.notFound, STORY_MESSAGES.storyNotFound);
      const saved =
        (await repos.images.saveVisuals(storyId, sheet, deps.now())) ??
        (await repos.images.createVisuals(storyId, sheet, newSheetSeed(), deps.now()));
      return toStyleSheetResponse(saved);
    },

    /**
     * Runs the workers on `jobQueue`. `sole`: this process is the database's only user (embedded,
     * locked), so jobs left active by a killed process are failed into their retry at once.
     * `graceSeconds` (IMAGE_JOB_GRACE_SECONDS): a run that outlives the painter's timeout by this
     * much belongs to a dead worker, and is retried.
     */
    async startWorkers(jobQueue: JobQueue, options: { sole: boolean; graceSeconds: number }): Promise<void> {
      if (!painter) return;
      queue = jobQueue;
      await jobQueue.createQueue(SCENE_IMAGE_QUEUE, {
        retryLimit: MAX_JOB_RUNS,
        expireInSeconds: Math.ceil(deps.config.timeoutMs / 1000) + options.graceSeconds,
      });
      if (options.sole) await jobQueue.failActive(SCENE_IMAGE_QUEUE, 'the process stopped while painting');
      const paint = createPaintJob({
        repos,
        painter,
        config: deps.config,
        styleSheets,
        allowance: deps.allowance,
        preferences: deps.preferences,
        now: deps.now,
        flush: deps.flush,
        log: deps.log,
        onSettled: (messageId) => settled.emit(`settled:${messageId}`),
        onFailed: () => deps.metrics?.pictureFailed(),
      });
      const metrics = deps.metrics;
      await jobQueue.work<SceneImageJob>(
        SCENE_IMAGE_QUEUE,
        deps.config.concurrency,
        metrics
          ? (job) => {
              metrics.pictureJobStarted();
              return paint(job.data).finally(() => metrics.pictureJobEnded());
            }
          : (job) => paint(job.data),
      );
      metrics?.watchPictureQueue(() => jobQueue.waiting(SCENE_IMAGE_QUEUE));
      const sweep = async () => {
        for (const id of await repos.images.orphans(
          new Date(deps.now().getTime() - ORPHAN_AFTER_MS),
          SCENE_IMAGE_QUEUE,
        )) {
          await jobQueue.send<SceneImageJob>(SCENE_IMAGE_QUEUE, { sceneImageId: id });
        }
      };
      await sweep();
      sweepTimer = setInterval(
        () => void sweep().catch((err) => deps.log.warn({ err }, 'orphan image sweep failed')),
        ORPHAN_AFTER_MS,
      );
      sweepTimer.unref();
    },

    stopWorkers(): void {
      if (sweepTimer) clearInterval(sweepTimer);
    },
  };
}
export type ImageService = ReturnType<typeof createImageService>;
