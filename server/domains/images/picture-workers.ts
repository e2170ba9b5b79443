// This instance's share of the painting: the scene-image queue's workers (each job one paint-job.ts
// run, timed by the app's metrics), the send of a new picture's job, and the sweep that sends again
// a pending picture whose job was lost to a crash. The queue is the durable one in the database, so
// any instance may paint what another asked for.
import type { ImageConfig, ImageProvider } from '@server/ai/image/types';
import type { Repositories } from '@server/db/repositories';
import type { SceneImageRecord } from '@server/db/repositories/images';
import type { JobQueue } from '@server/jobs/queue';
import type { Log } from '@server/kernel/log';
import type { Metrics } from '@server/kernel/metrics';
import type { Allowance } from '../limits/allowance';
import type { PreferencesSource } from '../preferences/preferences';
import { createPaintJob, MAX_JOB_RUNS, SCENE_IMAGE_QUEUE, type SceneImageJob } from './paint-job';
import type { SettledPictures } from './picture-status';
import type { StyleSheets } from './style-sheet';

/** A pending picture untouched this long with no job behind it lost its job to a crash: send it again. */
const ORPHAN_AFTER_MS = 60_000;

export interface PictureWorkerDeps {
  repos: Repositories;
  painter: ImageProvider;
  config: ImageConfig;
  styleSheets: StyleSheets;
  allowance: Allowance;
  preferences: PreferencesSource;
  settled: SettledPictures;
  now: () => Date;
  flush: () => Promise<void>;
  log: Log;
  metrics?: Pick<Metrics, 'pictureJobStarted' | 'pictureJobEnded' | 'pictureFailed' | 'watchPictureQueue'>;
}

export function createPictureWorkers(deps: PictureWorkerDeps) {
  const { repos } = deps;
  let queue: JobQueue | null = null;
  let sweepTimer: NodeJS.Timeout | null = null;

  async function runWorkers(jobQueue: JobQueue): Promise<void> {
    const paint = createPaintJob({
      repos,
      painter: deps.painter,
      config: deps.config,
      styleSheets: deps.styleSheets,
      allowance: deps.allowance,
      preferences: deps.preferences,
      now: deps.now,
      flush: deps.flush,
      log: deps.log,
      onSettled: (messageId) => deps.settled.settle(messageId),
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
  }

  /** Sends again the pending pictures whose job was lost, now and then every ORPHAN_AFTER_MS. */
  async function startSweep(jobQueue: JobQueue): Promise<void> {
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
  }

  return {
    async send(image: SceneImageRecord): Promise<void> {
      if (!queue) throw new Error('the image queue is not running');
      await queue.send<SceneImageJob>(SCENE_IMAGE_QUEUE, { sceneImageId: image.id });
    },

    async start(jobQueue: JobQueue, options: { sole: boolean; graceSeconds: number }): Promise<void> {
      queue = jobQueue;
      await jobQueue.createQueue(SCENE_IMAGE_QUEUE, {
        retryLimit: MAX_JOB_RUNS,
        expireInSeconds: Math.ceil(deps.config.timeoutMs / 1000) + options.graceSeconds,
      });
      if (options.sole) await jobQueue.failActive(SCENE_IMAGE_QUEUE, 'the process stopped while painting');
      await runWorkers(jobQueue);
      await startSweep(jobQueue);
    },

    stop(): void {
      if (sweepTimer) clearInterval(sweepTimer);
    },
  };
}
