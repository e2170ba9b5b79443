// A picture's life as a job: asked for (pending), taken by a job run, then ready (with its asset and
// usage row, in one transaction) or failed; and the pending pictures a crash left without a queue
// job, which the picture workers' sweep hands to the queue again. Each step moves only a row still
// pending, so runs of one job that overlap, or a message gone meanwhile, change nothing twice.
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../client';
import { imageAssets, sceneImages, usageEvents } from '../../schema';
import type { UsageEvent } from '../usage';
import { findImage, shownVersion, type SceneImageRecord } from './picture-rows';
import type { StoredAsset } from './stored-assets';

export function pictureJobs(db: Db) {
  return {
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
      return row ? findImage(db, row.id) : null;
    },

    /** Takes a pending picture for one more job run; null when it is no longer pending (done, or its message is gone). */
    async claim(id: number, now: Date): Promise<SceneImageRecord | null> {
      const [row] = await db
        .update(sceneImages)
        .set({ attempts: sql`${sceneImages.attempts} + 1`, updatedAt: now })
        .where(and(eq(sceneImages.id, id), eq(sceneImages.status, 'pending')))
        .returning({ id: sceneImages.id });
      return row ? findImage(db, row.id) : null;
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
  };
}
