// What the picture modules share: a scene picture's row as every read answers it (the job row with
// its asset's size), and the version a message shows, which each statement keyed by a message
// targets: a message shows the picture of the version it shows.
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../client';
import { imageAssets, sceneImages, storyMessages } from '../../schema';

export interface SceneImageRecord {
  id: number;
  userId: number;
  storyId: number;
  messageId: number;
  status: 'pending' | 'ready' | 'failed';
  scene: string;
  assetHash: string | null;
  error: string | null;
  attempts: number;
  width: number | null;
  height: number | null;
  createdAt: Date;
  updatedAt: Date;
}

const imageColumns = {
  id: sceneImages.id,
  userId: sceneImages.userId,
  storyId: sceneImages.storyId,
  messageId: sceneImages.messageId,
  status: sceneImages.status,
  scene: sceneImages.scene,
  assetHash: sceneImages.assetHash,
  error: sceneImages.error,
  attempts: sceneImages.attempts,
  width: imageAssets.width,
  height: imageAssets.height,
  createdAt: sceneImages.createdAt,
  updatedAt: sceneImages.updatedAt,
};

/** Scene pictures as SceneImageRecords, for a caller's WHERE (and joins). */
export const selectImages = (db: Db) =>
  db.select(imageColumns).from(sceneImages).leftJoin(imageAssets, eq(imageAssets.hash, sceneImages.assetHash));

/** One picture by its id: what the reads answer, and what a job's write answers after it. */
export async function findImage(db: Db, id: number): Promise<SceneImageRecord | null> {
  const [row] = await selectImages(db).where(eq(sceneImages.id, id));
  return row ?? null;
}

/** The version a message shows, for statements keyed by a message id. */
export const shownVersion = (messageId: number) =>
  sql`(select ${storyMessages.version} from ${storyMessages} where ${storyMessages.id} = ${messageId})`;
