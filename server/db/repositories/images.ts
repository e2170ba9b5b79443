// Scene pictures: the per-message-version job rows (pending, ready, failed), the content-addressed
// assets they point at, and each story's visual style sheet. A message shows the picture of the
// version it shows; reads join on it. Owner scoping happens here for reads that
// serve bytes: a picture is the owner's to read, or anyone's whose share snapshot names its hash.
import { and, asc, eq, sql } from 'drizzle-orm';
import type { StyleCharacter, StyleSheet } from '@shared/schemas/images';
import type { Db } from '../client';
import { imageAssets, sceneImages, stories, storyMessages, storyVisuals, usageEvents } from '../schema';
import type { UsageEvent } from './usage';
import { MAX_ID } from './sql-values';

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

export interface StoredAsset {
  hash: string;
  webp: Buffer;
  thumbnail: Buffer;
  width: number;
  height: number;
}

export interface VisualsRecord extends StyleSheet {
  seed: number;
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

const visualsColumns = {
  artStyle: storyVisuals.artStyle,
  player: storyVisuals.player,
  characters: storyVisuals.characters,
  seed: storyVisuals.seed,
  updatedAt: storyVisuals.updatedAt,
};

/** The version a message shows, for statements keyed by a message id. */
const shownVersion = (messageId: number) =>
  sql`(select ${storyMessages.version} from ${storyMessages} where ${storyMessages.id} = ${messageId})`;
/** Joins a picture to its message when it illustrates the version shown of a message the story shows. */
const ofShownVersion = and(
  eq(storyMessages.id, sceneImages.messageId),
  eq(storyMessages.version, sceneImages.version),
  eq(storyMessages.state, 'shown'),
);

export function createImagesRepository(db: Db) {
  const selectImages = () =>
    db.select(imageColumns).from(sceneImages).leftJoin(imageAssets, eq(imageAssets.hash, sceneImages.assetHash));

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
      const [row] = await selectImages().where(
        and(eq(sceneImages.messageId, messageId), eq(sceneImages.version, shownVersion(messageId))),
      );
      return row ?? null;
    },

    async findById(id: number): Promise<SceneImageRecord | null> {
      const [row] = await selectImages().where(eq(sceneImages.id, id));
      return row ?? null;
    },

    /** Every picture the story shows (of the versions its messages show) in message order (story reads). */
    async listForStory(storyId: number): Promise<SceneImageRecord[]> {
      return selectImages()
        .innerJoin(storyMessages, ofShownVersion)
        .where(eq(sceneImages.storyId, storyId))
        .orderBy(asc(sceneImages.messageId));
    },

    /**
     * Asks for the picture of the version a message shows: a new pending row, or a failed one set
     * pending again. Null when that version already has one pending or ready (asking twice starts one job).
     */
    async request(input: {
      userId: number;
      storyId: number;
      messageId: number;
      scene: string;
      now: Date;
    }): Promise<SceneImageRecord | null> {
      const [row] = await db
        .insert(sceneImages)
        .values({
          ...input,
          version: shownVersion(input.messageId),
          status: 'pending',
          createdAt: input.now,
          updatedAt: input.now,
        })
        .onConflictDoUpdate({
          target: [sceneImages.messageId, sceneImages.version],
          set: {
            status: 'pending',
            scene: input.scene,
            error: null,
            attempts: 0,
            assetHash: null,
            updatedAt: input.now,
          },
          setWhere: eq(sceneImages.status, 'failed'),
        })
        .returning({ id: sceneImages.id });
      return row ? this.findById(row.id) : null;
    },

    /** Takes a pending picture for one more job run; null when it is no longer pending (done, or its message is gone). */
    async claim(id: number, now: Date): Promise<SceneImageRecord | null> {
      const [row] = await db
        .update(sceneImages)
        .set({ attempts: sql`${sceneImages.attempts} + 1`, updatedAt: now })
        .where(and(eq(sceneImages.id, id), eq(sceneImages.status, 'pending')))
        .returning({ id: sceneImages.id });
      return row ? this.findById(row.id) : null;
    },

    /** The picture is painted: its asset (kept once per hash), the row ready and its usage row, together. */
    async complete(id: number, asset: StoredAsset, usage: UsageEvent, now: Date): Promise<boolean> {
      return db.transaction(async (tx) => {
        await tx
          .insert(imageAssets)
          .values({ ...asset, createdAt: now })
          .onConflictDoNothing();
        const rows = await tx
          .update(sceneImages)
          .set({ status: 'ready', assetHash: asset.hash, error: null, updatedAt: now })
          .where(and(eq(sceneImages.id, id), eq(sceneImages.status, 'pending')))
          .returning({ id: sceneImages.id });
        if (rows.length === 0) return false;
        await tx.insert(usageEvents).values(usage);
        return true;
      });
    },

    async fail(id: number, reason: string, now: Date): Promise<void> {
      await db
        .update(sceneImages)
        .set({ status: 'failed', error: reason, updatedAt: now })
        .where(and(eq(sceneImages.id, id), eq(sceneImages.status, 'pending')));
    },

    /** Pending pictures not touched since `before` whose queue job is gone (a crash between the row and the job). */
    async orphans(before: Date, queueName: string): Promise<number[]> {
      const result = await db.execute(sql`
        select s.id from scene_images s
        where s.status = 'pending' and s.updated_at < ${before.toISOString()}::timestamptz
          and not exists (
            select 1 from pgboss.job j
            where j.name = ${queueName} and (j.data->>'sceneImageId')::int = s.id and j.state < 'completed'
          )`);
      return (result as unknown as { rows: Array<{ id: number }> }).rows.map((r) => Number(r.id));
    },

    /** A stored picture's bytes if `userId` owns a story showing it. */
    async assetForOwner(hash: string, userId: number): Promise<StoredAsset | null> {
      const [row] = await db
        .select({
          hash: imageAssets.hash,
          webp: imageAssets.webp,
          thumbnail: imageAssets.thumbnail,
          width: imageAssets.width,
          height: imageAssets.height,
        })
        .from(imageAssets)
        .where(
          and(
            eq(imageAssets.hash, hash),
            sql`exists (select 1 from ${sceneImages} where ${sceneImages.assetHash} = ${hash} and ${sceneImages.userId} = ${userId})`,
          ),
        );
      return row ?? null;
    },

    async asset(hash: string): Promise<StoredAsset | null> {
      const [row] = await db
        .select({
          hash: imageAssets.hash,
          webp: imageAssets.webp,
          thumbnail: imageAssets.thumbnail,
          width: imageAssets.width,
          height: imageAssets.height,
        })
        .from(imageAssets)
        .where(eq(imageAssets.hash, hash));
      return row ?? null;
    },

    async findVisuals(storyId: number): Promise<VisualsRecord | null> {
      const [row] = await db.select(visualsColumns).from(storyVisuals).where(eq(storyVisuals.storyId, storyId));
      return row ?? null;
    },

    /** Writes the first style sheet unless one exists (two jobs may race to fill it): answers the one kept. */
    async createVisuals(storyId: number, sheet: StyleSheet, seed: number, now: Date): Promise<VisualsRecord> {
      await db
        .insert(storyVisuals)
        .values({ storyId, ...sheet, seed, updatedAt: now })
        .onConflictDoNothing();
      return (await this.findVisuals(storyId)) as VisualsRecord;
    },

    async saveVisuals(storyId: number, sheet: StyleSheet, now: Date): Promise<VisualsRecord | null> {
      const [row] = await db
        .update(storyVisuals)
        .set({ ...sheet, updatedAt: now })
        .where(eq(storyVisuals.storyId, storyId))
        .returning(visualsColumns);
      return row ?? null;
    },

    /** Adds characters not yet on the sheet (by name, case-insensitive), keeping any the owner edited. */
    async addCharacters(storyId: number, characters: StyleCharacter[], max: number, now: Date): Promise<void> {
      await db.transaction(async (tx) => {
        const [row] = await tx
          .select({ characters: storyVisuals.characters })
          .from(storyVisuals)
          .where(eq(storyVisuals.storyId, storyId))
          .for('update');
        if (!row) return;
        const known = new Set(row.characters.map((c) => c.name.toLowerCase()));
        const added = characters.filter((c) => !known.has(c.name.toLowerCase()));
        if (added.length === 0) return;
        await tx
          .update(storyVisuals)
          .set({ characters: [...row.characters, ...added].slice(0, max), updatedAt: now })
          .where(eq(storyVisuals.storyId, storyId));
      });
    },
  };
}
export type ImagesRepository = ReturnType<typeof createImagesRepository>;
