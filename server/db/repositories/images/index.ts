// Scene pictures: the per-message-version job rows (pending, ready, failed), the content-addressed
// assets they point at, and each story's visual style sheet. A message shows the picture of the
// version it shows; reads join on it. Owner scoping happens here for reads that serve bytes: a
// picture is the owner's to read, or anyone's whose share snapshot names its hash. One module per
// part: the reads (picture-reads.ts), a picture's job (picture-jobs.ts), the stored bytes
// (stored-assets.ts) and the style sheet (style-sheets.ts).
import type { Db } from '../../client';
import { pictureJobs } from './picture-jobs';
import { pictureReads } from './picture-reads';
import { storedAssets } from './stored-assets';
import { styleSheets } from './style-sheets';

export type { SceneImageRecord } from './picture-rows';
export type { StoredAsset } from './stored-assets';
export type { VisualsRecord } from './style-sheets';

export function createImagesRepository(db: Db) {
  return { ...pictureReads(db), ...pictureJobs(db), ...storedAssets(db), ...styleSheets(db) };
}
export type ImagesRepository = ReturnType<typeof createImagesRepository>;
