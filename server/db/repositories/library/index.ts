// The owner's story library: one page of their stories (newest played first, optionally filtered
// by title), renaming, what their data download lists, and deleting a story or an account with
// everything that hangs off it. Every statement is scoped by the owner. One module per part: the
// tiles (tiles.ts), the data download's lists (data-download.ts) and the deletions (removals.ts).
import type { Db } from '../../client';
import { dataDownload } from './data-download';
import { removals } from './removals';
import { libraryTiles } from './tiles';

export type { LibraryRow } from './tiles';

export function createLibraryRepository(db: Db) {
  return { ...libraryTiles(db), ...dataDownload(db), ...removals(db) };
}
export type LibraryRepository = ReturnType<typeof createLibraryRepository>;
