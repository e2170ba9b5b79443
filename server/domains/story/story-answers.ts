// What story reads need of the writer that sends a story's shown messages as JSON bytes:
// http/presenters/story-json.ts implements it (each message text kept as its escaped bytes); the
// composition root hands one to the story service.
import type { MessageHead } from '@server/db/repositories/stories';

/** A story's shown messages: their heads and, in the same order, their texts' JSON bytes. */
export interface StoryMessagesRead {
  heads: MessageHead[];
  bodies: Buffer[];
}

export interface StoryAnswers {
  /** The story's shown messages, heads and kept texts, in story order. The caller has checked the owner. */
  read(storyId: number): Promise<StoryMessagesRead>;
  /** An answer's bytes: the messages (with their pictures) followed by the other fields of `rest`. */
  answer(read: StoryMessagesRead, pictures: Map<number, string>, rest: Record<string, unknown>): Buffer;
}
