// What one account may keep: stories (started, imported and branched), live share
// links, versions per message and the bytes of everything stored for it, and GET /api/user/limits, which
// shows each quota's use against its limit on Account Settings. The limits other than versions are
// settings (USER_MAX_STORIES, USER_MAX_SHARES, USER_MAX_STORED_MB), so the messages name them.
import { z } from 'zod';
import { STORY_FILE_MAX_VERSIONS } from './story-export';

/** A message keeps at most this many versions: as many as a story file may carry, so every export imports again. */
export const MESSAGE_MAX_VERSIONS = STORY_FILE_MAX_VERSIONS;

const count = (n: number) => n.toLocaleString('en-US');

export const QUOTA_MESSAGES = {
  /** 429: a story start, import or branch past USER_MAX_STORIES. */
  tooManyStories: (max: number) =>
    `You have ${count(max)} stories, the most one account may keep. Delete a story to start, import or branch another.`,
  /** 429: a share past USER_MAX_SHARES live links. */
  tooManyShares: (max: number) =>
    `You have ${count(max)} shared links, the most one account may have at once. Stop sharing a story to share another.`,
  /** 429: an edit or a 'Try again' on a message that has every version it may keep. */
  tooManyVersions: `This message has ${count(MESSAGE_MAX_VERSIONS)} versions, the most one message may keep. Choose one of them instead.`,
  /** 413: a write that would take the account's stored bytes past USER_MAX_STORED_MB. */
  storageFull: (maxMb: number) =>
    `Your stories would take more than the ${count(maxMb)} MB one account may store. Delete a story or stop sharing one to make room.`,
} as const;

export const quotaUseSchema = z.object({
  used: z.number().int().nonnegative(),
  limit: z.number().int().positive(),
});
export type QuotaUse = z.infer<typeof quotaUseSchema>;

export const userLimitsResponseSchema = z.object({
  stories: quotaUseSchema,
  /** Live share links. */
  shares: quotaUseSchema,
  /**
   * Bytes of everything stored for the account, pictures aside: its stories' text and versions, story
   * cards, story-bible facts, the memory bank's passages, terms and vectors, each reply version's
   * context record, and share snapshots. The limit is USER_MAX_STORED_MB in bytes (MiB).
   */
  storedBytes: quotaUseSchema,
  /** This month's tokens against USER_MONTHLY_TOKEN_LIMIT; null without one (unlimited). */
  monthlyTokens: quotaUseSchema.nullable(),
});
export type UserLimits = z.infer<typeof userLimitsResponseSchema>;
