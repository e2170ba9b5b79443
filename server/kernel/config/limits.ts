// What one player may spend and keep (USER_*): the monthly allowance, hourly narrator calls and
// the account quotas.
import { positiveInt } from './env';

/** USER_MAX_STORED_MB counts mebibytes. */
export const BYTES_PER_MB = 1024 * 1024;

export interface QuotaLimits {
  /** Stories an account may keep (started, imported and branched alike). */
  maxStories: number;
  /** Live share links an account may have. */
  maxShares: number;
  /** Bytes of stored story text (messages, their versions, premise, memory, notes, kept folds) and share snapshots. */
  maxStoredBytes: number;
}

export const limitsEnv = {
  USER_MONTHLY_TOKEN_LIMIT: positiveInt('USER_MONTHLY_TOKEN_LIMIT').optional(),
  USER_TURNS_PER_HOUR: positiveInt('USER_TURNS_PER_HOUR').default(300),
  USER_SIDE_CALLS_PER_HOUR: positiveInt('USER_SIDE_CALLS_PER_HOUR').default(300),
  USER_MAX_STORIES: positiveInt('USER_MAX_STORIES').default(1000),
  USER_MAX_SHARES: positiveInt('USER_MAX_SHARES').default(200),
  USER_MAX_STORED_MB: positiveInt('USER_MAX_STORED_MB').default(500),
  STORY_MAX_CARDS: positiveInt('STORY_MAX_CARDS').default(1000),
};
