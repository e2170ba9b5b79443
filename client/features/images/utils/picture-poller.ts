// Polls the pictures being painted, outside React so a picture keeps being
// checked whether or not its bubble is in the virtualised chat's DOM. Each picture is checked at
// once, then 2 s after each answer (never two requests for one picture at a time). A 404 or a
// picture-less answer is one more attempt; after 30 the picture has timed out. A 422 is the
// painter's failure with its reason. A check that fails outright (network, 5xx) counts too, and
// after 3 of them the picture is given up as stalled (its Retry starts polling again).
import { errorMessage } from '@client/lib/api-client';
import { fetchMessageImage, type MessageImageCheck } from '../api/get-message-image';
import { IMAGE_POLL_INTERVAL_MS, SCENE_IMAGE_MAX_FAILED_ATTEMPTS, STORY_IMAGE_MAX_ATTEMPTS } from '../constants';
import { IMAGES_STRINGS } from '../strings';
import type { ReadyPicture } from '../types';

export interface PicturePollerHandlers {
  onReady(messageId: number, picture: ReadyPicture): void;
  onFailed(messageId: number, reason: string): void;
  /** The status checks kept failing: polling this picture stops until it is asked for again. */
  onStalled(messageId: number, message: string): void;
}

export interface PicturePollerOptions extends PicturePollerHandlers {
  check?: (messageId: number, signal: AbortSignal) => Promise<MessageImageCheck>;
  intervalMs?: number;
  maxAttempts?: number;
  maxFailedChecks?: number;
}

/** Status checks in flight at once, across all pictures. */
export const MAX_CHECKS_AT_ONCE = 2;

interface Job {
  attempts: number;
  failedChecks: number;
  timer: ReturnType<typeof setTimeout> | null;
  controller: AbortController | null;
}

export function createPicturePoller(options: PicturePollerOptions) {
  const check = options.check ?? fetchMessageImage;
  const intervalMs = options.intervalMs ?? IMAGE_POLL_INTERVAL_MS;
  const maxAttempts = options.maxAttempts ?? STORY_IMAGE_MAX_ATTEMPTS;
  const maxFailedChecks = options.maxFailedChecks ?? SCENE_IMAGE_MAX_FAILED_ATTEMPTS;
  const jobs = new Map<number, Job>();
  // The server holds a check up to 1.5 s while the picture is painted: a few at a time leave the
  // browser's six connections per host free for the story itself (its streamed turns).
  let checking = 0;
  const waiting: Array<() => void> = [];
  const acquire = (): Promise<void> => {
    if (checking < MAX_CHECKS_AT_ONCE) {
      checking += 1;
      return Promise.resolve();
    }
    return new Promise((resolve) =>
      waiting.push(() => {
        checking += 1;
        resolve();
      }),
    );
  };
  const release = () => {
    checking -= 1;
    waiting.shift()?.();
  };
  /**
   * Pictures this poller settled that are still listed: their new state may not have reached the
   * list yet, and they must not be polled again until they leave it (a Retry brings them back).
   */
  const settled = new Set<number>();

  function forget(messageId: number) {
    const job = jobs.get(messageId);
    if (!job) return;
    if (job.timer) clearTimeout(job.timer);
    job.controller?.abort();
    jobs.delete(messageId);
  }

  function settle(messageId: number) {
    jobs.delete(messageId);
    settled.add(messageId);
  }

  async function run(messageId: number, job: Job) {
    job.timer = null;
    const controller = new AbortController();
    job.controller = controller;
    let result: MessageImageCheck | null = null;
    let failure: unknown = null;
    await acquire();
    try {
      if (!controller.signal.aborted) result = await check(messageId, controller.signal);
    } catch (error) {
      failure = error;
    } finally {
      release();
    }
    // Forgotten (or the whole poller stopped) while the answer was on its way.
    if (jobs.get(messageId) !== job || controller.signal.aborted) return;
    job.controller = null;
    job.attempts += 1;
    if (result?.status === 'ready') {
      settle(messageId);
      options.onReady(messageId, result.picture);
      return;
    }
    if (result?.status === 'failed') {
      settle(messageId);
      options.onFailed(messageId, result.reason);
      return;
    }
    if (failure !== null) {
      job.failedChecks += 1;
      if (job.failedChecks >= maxFailedChecks) {
        settle(messageId);
        options.onStalled(messageId, errorMessage(failure, IMAGES_STRINGS.fetchFailed));
        return;
      }
    }
    if (job.attempts >= maxAttempts) {
      settle(messageId);
      options.onFailed(messageId, IMAGES_STRINGS.timedOut);
      return;
    }
    job.timer = setTimeout(() => void run(messageId, job), intervalMs);
  }

  return {
    /** Polls exactly these pictures: new ones start at once, ones no longer listed are dropped. */
    sync(messageIds: readonly number[]) {
      const wanted = new Set(messageIds);
      for (const id of [...jobs.keys()]) if (!wanted.has(id)) forget(id);
      for (const id of [...settled]) if (!wanted.has(id)) settled.delete(id);
      for (const id of wanted) {
        if (jobs.has(id) || settled.has(id)) continue;
        const job: Job = { attempts: 0, failedChecks: 0, timer: null, controller: null };
        jobs.set(id, job);
        void run(id, job);
      }
    },
    stop() {
      for (const id of [...jobs.keys()]) forget(id);
      settled.clear();
    },
    /** The pictures being polled now (tests). */
    polling(): number[] {
      return [...jobs.keys()];
    },
  };
}
export type PicturePoller = ReturnType<typeof createPicturePoller>;
