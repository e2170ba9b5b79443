// Scene images: asking for a message's picture (on demand, or for every
// new reply when the player has pictures on), reading its state, the story's pictures for story
// reads, serving stored bytes to their owner, and the style sheet API. The painting itself runs
// behind, as a durable job (paint-job.ts). Everything is the owner's only: another user's story,
// message or picture answers 404 like a missing one. This door builds the use cases' shared parts
// once (the style sheets, the settled-picture signal, the workers) and hands each its own.
import type { ImageConfig, ImageProvider } from '@server/ai/image/types';
import type { NarratorProvider } from '@server/ai/llm/types';
import type { Repositories } from '@server/db/repositories';
import type { StoredAsset } from '@server/db/repositories/images';
import type { JobQueue } from '@server/jobs/queue';
import type { Log } from '@server/kernel/log';
import type { Metrics } from '@server/kernel/metrics';
import type {
  GenerateImageResponse,
  MessageImageResponse,
  SceneImage,
  StyleSheet,
  StyleSheetResponse,
} from '@shared/schemas/images';
import type { Allowance } from '../limits/allowance';
import type { PreferencesSource } from '../preferences/preferences';
import { generatePicture, illustrateReply, type AskDeps } from './ask-picture';
import { readStyleSheet, saveStyleSheet } from './owner-style-sheet';
import { createSettledPictures, IMAGE_POLL_WAIT_MS, pictureStatus } from './picture-status';
import { createPictureWorkers } from './picture-workers';
import { imagesDisabled, toSceneImage } from './scene-images';
import { createStyleSheets } from './style-sheet';

export { IMAGE_POLL_WAIT_MS } from './picture-status';
export { imageUrl, thumbnailUrl, toSceneImage } from './scene-images';

export interface ImageServiceDeps {
  repos: Repositories;
  config: ImageConfig;
  /** Null when IMAGE_PROVIDER=none: every image call answers 404 and nothing shows. */
  painter: ImageProvider | null;
  /** The narrator that writes a story's style sheet: the operator's for style sheets, else the story's. */
  styleNarrator: (userId: number, storyId: number) => Promise<NarratorProvider>;
  /** A picture is a paid call: the player's hour when asked, their month when asked and again when painted. */
  allowance: Allowance;
  preferences: PreferencesSource;
  now: () => Date;
  flush: () => Promise<void>;
  log: Log;
  /** The app's metrics: picture jobs running here, failed, and waiting in the queue. */
  metrics?: Pick<Metrics, 'pictureJobStarted' | 'pictureJobEnded' | 'pictureFailed' | 'watchPictureQueue'>;
}

export function createImageService(deps: ImageServiceDeps) {
  const { repos, painter, now } = deps;
  const settled = createSettledPictures();
  const styleSheets = createStyleSheets({
    repos,
    narratorFor: deps.styleNarrator,
    allowance: deps.allowance,
    now,
    log: deps.log,
  });
  const workers = painter && createPictureWorkers({ ...deps, painter, styleSheets, settled });
  const asking: AskDeps = {
    repos,
    allowance: deps.allowance,
    now,
    enqueue: (image) => (workers ? workers.send(image) : Promise.reject(new Error('the image queue is not running'))),
  };
  const sheets = { repos, styleSheets, preferences: deps.preferences, now };

  function requirePainter(): ImageProvider {
    if (!painter) throw imagesDisabled();
    return painter;
  }

  return {
    enabled: painter !== null,

    /** POST …/generate-image and …/generate-initial-image: the job is accepted; the answer comes at once. */
    async generate(userId: number, messageId: number, body: { storyId: number }): Promise<GenerateImageResponse> {
      requirePainter();
      return generatePicture(asking, userId, messageId, body.storyId);
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
      return illustrateReply({ ...asking, flush: deps.flush, log: deps.log }, userId, storyId, messageId);
    },

    /** GET …/message/{id}/image: 200 when ready, 404 while painting (after a short wait) or when none, 422 with the reason when it failed. */
    async status(userId: number, messageId: number, waitMs = IMAGE_POLL_WAIT_MS): Promise<MessageImageResponse> {
      requirePainter();
      return pictureStatus({ repos, settled }, userId, messageId, waitMs);
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

    /** The story's style sheet (owner-style-sheet.ts): `mayPay` false makes no narrator call and writes nothing. */
    async styleSheet(userId: number, storyId: number, mayPay: boolean): Promise<StyleSheetResponse> {
      requirePainter();
      return readStyleSheet(sheets, userId, storyId, mayPay);
    },

    /** The owner's edit: kept as it is (a sheet not filled yet starts from it, with its own seed); no narrator call. */
    async saveStyleSheet(userId: number, storyId: number, sheet: StyleSheet): Promise<StyleSheetResponse> {
      requirePainter();
      return saveStyleSheet(sheets, userId, storyId, sheet);
    },

    /**
     * Runs the workers on `jobQueue`. `sole`: this process is the database's only user (embedded,
     * locked), so jobs left active by a killed process are failed into their retry at once.
     * `graceSeconds` (IMAGE_JOB_GRACE_SECONDS): a run that outlives the painter's timeout by this
     * much belongs to a dead worker, and is retried.
     */
    async startWorkers(jobQueue: JobQueue, options: { sole: boolean; graceSeconds: number }): Promise<void> {
      await workers?.start(jobQueue, options);
    },

    stopWorkers(): void {
      workers?.stop();
    },
  };
}
export type ImageService = ReturnType<typeof createImageService>;
