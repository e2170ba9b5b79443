// The reads behind a story's pictures: the reply a picture may illustrate (the owner's narrator
// message, checked before anything is asked of the painter), and the pictures of the versions the
// story's messages show, one by one or all of a story for its reads.
import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../client';
import { sceneImages, stories, storyMessages } from '../../schema';
import { MAX_ID } from '../sql-values';
import { findImage, selectImages, shownVersion, type SceneImageRecord } from './picture-rows';

/** Joins a picture to its message when it illustrates the version shown of a message the story shows. */
const ofShownVersion = and(
  eq(storyMessages.id, sceneImages.messageId),
  eq(storyMessages.version, sceneImages.version),
  eq(storyMessages.state, 'shown'),
);

export function pictureReads(db: Db) {
  return {
    /** The owner's narrator message in the owner's story (the one thing a picture may illustrate). */
    async findReply(
      userId: number,
      storyId: number,
      messageId: number,
    ): Promise<{ id: number; content: string; role: 'user' | 'assistant' } | null> {
      if (messageId > MAX_ID || storyId > MAX_ID) return null;
      const [row] = await db
        .select({ id: storyMessages.id, content: storyMessages.content, role: storyMessages.role })
        .from(storyMessages)
        .innerJoin(stories, eq(stories.id, storyMessages.storyId))
        .where(and(eq(storyMessages.id, messageId), eq(storyMessages.storyId, storyId), eq(stories.userId, userId)));
      return row ?? null;
    },

    async findByMessage(messageId: number): Promise<SceneImageRecord | null> {
      if (messageId > MAX_ID) return null;
      const [row] = await selectImages(db).where(
        and(eq(sceneImages.messageId, messageId), eq(sceneImages.version, shownVersion(messageId))),
      );
      return row ?? null;
    },

    async findById(id: number): Promise<SceneImageRecord | null> {
      return findImage(db, id);
    },

    /** Every picture the story shows (of the versions its messages show) in message order (story reads). */
    async listForStory(storyId: number): Promise<SceneImageRecord[]> {
      return selectImages(db)
        .innerJoin(storyMessages, ofShownVersion)
        .where(eq(sceneImages.storyId, storyId))
        .orderBy(asc(sceneImages.messageId));
    },
  };
}
