// What a turn passes before anything is written or asked of the narrator: the player's hour and
// month (the turn's cost reserved), ownership, the storage quota and the story's one-reply lease.
// A turn that never reaches the narrator is counted here as refused or failed.
import type { NarratorProvider } from '@server/ai/llm/types';
import type { Repositories } from '@server/db/repositories';
import type { StoryRecord } from '@server/db/repositories/stories';
import { DomainError } from '@server/kernel/errors';
import type { Metrics } from '@server/kernel/metrics';
import type { Allowance, Hold } from '../limits/allowance';
import { quotaError, type QuotaService } from '../limits/quotas';
import { notFound, storyBusy } from './errors';

export interface TurnAdmissionDeps {
  repos: Repositories;
  provider: Pick<NarratorProvider, 'id' | 'narrator'>;
  allowance: Allowance;
  now: () => Date;
  quotas: Pick<QuotaService, 'limits'>;
  metrics?: Pick<Metrics, 'turnFinished'>;
}

export function createTurnAdmission(deps: TurnAdmissionDeps, turnTokens: number, leaseUntil: () => Date) {
  const { repos, provider } = deps;

  /**
   * A turn that never reached the narrator, counted: refused (its hour or month, a quota, the story
   * busy) or failed; a story that is not the player's is no turn.
   */
  const notStarted = (error: unknown): never => {
    if (!(error instanceof DomainError)) deps.metrics?.turnFinished(provider, 'failed');
    else if (error.kind !== 'notFound') deps.metrics?.turnFinished(provider, 'refused');
    throw error;
  };

  /**
   * Why a lease was not taken: 404 when the story is not the owner's, 413 when their stored text
   * and `actionBytes` would pass the storage quota, else 409 (a reply is being written).
   */
  async function leaseRefused(userId: number, storyId: number, actionBytes = 0): Promise<never> {
    const usage = await repos.quotas.ownedStoryUsage(storyId, userId);
    if (!usage) throw notFound();
    if (usage.storedBytes + actionBytes > deps.quotas.limits.maxStoredBytes)
      throw quotaError('storage', deps.quotas.limits);
    throw storyBusy();
  }

  return {
    /** The player's hour and month, checked (and the turn's cost reserved) before anything is written or asked. */
    admitTurn: (userId: number): Promise<Hold> => deps.allowance.admit(userId, 'turn', turnTokens).catch(notStarted),

    /** Runs `prepare` holding the turn's reservation; a turn that never gets prepared gives it back. */
    async withHold<T>(hold: Hold, prepare: () => Promise<T>): Promise<T> {
      try {
        return await prepare();
      } catch (error) {
        await hold.release();
        return notStarted(error);
      }
    },

    leaseRefused,

    /** The owner's story with its lease taken: 404 when it is not theirs, 413 when their stored text is full, 409 while a reply is being written. */
    async leaseStory(userId: number, storyId: number): Promise<StoryRecord> {
      return (
        (await repos.stories.leaseOwned(
          storyId,
          userId,
          deps.now(),
          leaseUntil(),
          deps.quotas.limits.maxStoredBytes,
        )) ?? leaseRefused(userId, storyId)
      );
    },

    /** Runs `work` holding the lease; a failure before the turn is prepared gives the lease back. */
    async underLease<T>(storyId: number, work: () => Promise<T>): Promise<T> {
      try {
        return await work();
      } catch (error) {
        await repos.stories.releaseLease(storyId);
        throw error;
      }
    },
  };
}
export type TurnAdmission = ReturnType<typeof createTurnAdmission>;
