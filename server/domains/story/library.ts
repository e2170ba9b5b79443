// The player's story library: their stories a page at a time (newest played first, searchable by
// title), renaming and deleting. Another player's story answers 404 like a missing one; a story
// whose reply is being written cannot be deleted (409), and renaming it is harmless, so allowed.
import { fallbackTitle } from '@server/ai/llm/titles';
import type { Repositories } from '@server/db/repositories';
import { LIBRARY_PAGE_SIZE, type LibraryPage, type StoryRenameResponse } from '@shared/schemas/library';
import { thumbnailUrl } from '../images';
import { notFound, storyBusy } from './errors';

interface LibraryDeps {
  repos: Repositories;
  /** Whether pictures are on: their addresses answer only then. */
  picturesEnabled: boolean;
  /** Drops deleted shares from every instance's cache of public snapshots. */
  sharesGone: (shareIds: string[]) => Promise<void>;
  now: () => Date;
}

export function createLibraryService({ repos, picturesEnabled, sharesGone, now }: LibraryDeps) {
  /** After stories went: their pictures nothing else shows, and their shares in every cache. */
  async function cleanUp(gone: { shareIds: string[]; assetHashes: string[] }): Promise<void> {
    await repos.library.removeOrphanedAssets(gone.assetHashes);
    await sharesGone(gone.shareIds);
  }

  return {
    async list(userId: number, options: { page?: number; limit?: number; q?: string }): Promise<LibraryPage> {
      const page = options.page ?? 1;
      const limit = options.limit ?? LIBRARY_PAGE_SIZE;
      const query = options.q?.trim() || undefined;
      const { rows, total } = await repos.library.page({ userId, query, limit, offset: (page - 1) * limit });
      return {
        page,
        limit,
        total,
        stories: rows.map((row) => ({
          id: row.id,
          title: row.title ?? fallbackTitle(row.premise),
          turns: row.turns,
          createdAt: row.createdAt.toISOString(),
          lastPlayedAt: row.lastPlayedAt.toISOString(),
          thumbnail: picturesEnabled && row.assetHash ? thumbnailUrl(row.assetHash) : null,
        })),
      };
    },

    async rename(userId: number, storyId: number, title: string): Promise<StoryRenameResponse> {
      if (!(await repos.library.rename(storyId, userId, title))) throw notFound();
      return { id: storyId, title };
    },

    async remove(userId: number, storyId: number): Promise<void> {
      const outcome = await repos.library.remove(storyId, userId, now());
      if (outcome === 'missing') throw notFound();
      if (outcome === 'busy') throw storyBusy();
      await cleanUp(outcome);
    },

    /**
     * Deletes a player's account and everything of theirs (each story in pieces, then the rest
     * through the foreign keys), then cleans up as a story's deletion does. Usage rows stay, anonymous.
     */
    async removeAccount(userId: number): Promise<void> {
      await cleanUp(await repos.library.removeAccount(userId));
    },
  };
}
export type LibraryService = ReturnType<typeof createLibraryService>;
