// Server voices' storage: the owner's message a clip is spoken from, and the spoken sentences kept
// per (message, voice, sentence hash). A new clip lands in one transaction with its ledger row, so
// the ledger never counts audio that was not kept, nor keeps audio it did not count.
import { and, eq } from 'drizzle-orm';
import type { Db } from '../client';
import { speechClips, stories, storyMessages, usageEvents } from '../schema';
import type { UsageEvent } from './usage';
import { MAX_ID } from './sql-values';

export interface SpeechClip {
  mime: string;
  audio: Buffer;
  characters: number;
}

export interface NewSpeechClip extends SpeechClip {
  messageId: number;
  voice: string;
  textHash: string;
  /** The provider call that made it; recorded even when another request stored the same clip first, since it was paid for. */
  usage: UsageEvent;
  now: Date;
}

export function createSpeechRepository(db: Db) {
  return {
    /** A message of the owner's story: null for a missing id, another user's story, or a message of another story. */
    async findOwnedMessage(
      userId: number,
      storyId: number,
      messageId: number,
    ): Promise<{ id: number; role: 'user' | 'assistant'; content: string } | null> {
      if (messageId > MAX_ID || storyId > MAX_ID) return null;
      const [row] = await db
        .select({ id: storyMessages.id, role: storyMessages.role, content: storyMessages.content })
        .from(storyMessages)
        .innerJoin(stories, eq(stories.id, storyMessages.storyId))
        .where(and(eq(storyMessages.id, messageId), eq(storyMessages.storyId, storyId), eq(stories.userId, userId)));
      return row ?? null;
    },

    async findClip(messageId: number, voice: string, textHash: string): Promise<SpeechClip | null> {
      const [row] = await db
        .select({ mime: speechClips.mime, audio: speechClips.audio, characters: speechClips.characters })
        .from(speechClips)
        .where(
          and(eq(speechClips.messageId, messageId), eq(speechClips.voice, voice), eq(speechClips.textHash, textHash)),
        );
      return row ?? null;
    },

    async saveClip(clip: NewSpeechClip): Promise<void> {
      await db.transaction(async (tx) => {
        await tx
          .insert(speechClips)
          .values({
            messageId: clip.messageId,
            voice: clip.voice,
            textHash: clip.textHash,
            mime: clip.mime,
            audio: clip.audio,
            characters: clip.characters,
            createdAt: clip.now,
          })
          .onConflictDoNothing();
        await tx.insert(usageEvents).values({ ...clip.usage, createdAt: clip.now });
      });
    },
  };
}
export type SpeechRepository = ReturnType<typeof createSpeechRepository>;
