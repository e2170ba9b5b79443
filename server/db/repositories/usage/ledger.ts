// The ledger itself: one row per provider call (user, story, provider, model, kind, input and
// output tokens, time), appended here or by the statement that stores what the call made (a reply,
// a picture, a clip); and a story's or a player's rows read back in call order, the only reads of
// the ledger's rows rather than its rollups.
import { eq, type SQL } from 'drizzle-orm';
import type { Db } from '../../client';
import { usageEvents } from '../../schema';

export interface UsageEvent {
  userId: number;
  storyId?: number | null;
  /** The narrator reply the call was for or came after (its fold, its picture), when there is one. */
  messageId?: number | null;
  kind?: 'turn' | 'retry-loop' | 'summary' | 'title' | 'image' | 'style' | 'speech' | 'transcription' | 'embedding';
  provider: string;
  model: string;
  /** The catalogue narrator that made the call, priced with its prices; unset: `default` (pictures, voices, embeddings). */
  narrator?: string;
  inputTokens?: number;
  /** The part of inputTokens read from the provider's prompt cache; unset when it reported none (stored as 0). */
  cachedInputTokens?: number;
  outputTokens?: number;
  imageTokens?: number;
  /** Speech: the spoken sentence's length; transcription: the transcript's length. */
  characters?: number;
  createdAt?: Date;
}

/** A ledger row as read back: its player is null once they deleted their account. */
export type LedgerRow = Omit<Required<Omit<UsageEvent, 'storyId' | 'messageId' | 'createdAt'>>, 'userId'> & {
  userId: number | null;
};

export function ledgerRows(db: Db) {
  const list = (where: SQL): Promise<LedgerRow[]> =>
    db
      .select({
        userId: usageEvents.userId,
        kind: usageEvents.kind,
        provider: usageEvents.provider,
        model: usageEvents.model,
        narrator: usageEvents.narrator,
        inputTokens: usageEvents.inputTokens,
        cachedInputTokens: usageEvents.cachedInputTokens,
        outputTokens: usageEvents.outputTokens,
        imageTokens: usageEvents.imageTokens,
        characters: usageEvents.characters,
      })
      .from(usageEvents)
      .where(where)
      .orderBy(usageEvents.id);

  return {
    async record(event: UsageEvent): Promise<void> {
      await db.insert(usageEvents).values(event);
    },

    async listForStory(storyId: number): Promise<LedgerRow[]> {
      return list(eq(usageEvents.storyId, storyId));
    },

    /** A user's rows, oldest first (transcriptions belong to no story). */
    async listForUser(userId: number): Promise<LedgerRow[]> {
      return list(eq(usageEvents.userId, userId));
    },
  };
}
