// A painted picture's bytes, kept once per content hash whichever stories show it. Serving them is
// scoped here: the owner's read finds a picture only if they own a story showing it; the unscoped
// read is for callers that checked otherwise (a share snapshot naming the hash).
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../client';
import { imageAssets, sceneImages } from '../../schema';

export interface StoredAsset {
  hash: string;
  webp: Buffer;
  thumbnail: Buffer;
  width: number;
  height: number;
}

const assetColumns = {
  hash: imageAssets.hash,
  webp: imageAssets.webp,
  thumbnail: imageAssets.thumbnail,
  width: imageAssets.width,
  height: imageAssets.height,
};

export function storedAssets(db: Db) {
  return {
    /** A stored picture's bytes if `userId` owns a story showing it. */
    async assetForOwner(hash: string, userId: number): Promise<StoredAsset | null> {
      const [row] = await db
        .select(assetColumns)
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
      const [row] = await db.select(assetColumns).from(imageAssets).where(eq(imageAssets.hash, hash));
      return row ?? null;
    },
  };
}
