// Bookmarks: list, create, edit and delete, each for the owner only. A new
// bookmark must point at the user's own story and at a message of that story; anything else is
// 404, exactly like a missing one, so ids reveal nothing about other users.
import type { Repositories } from '@server/db/repositories';
import type { BookmarkRecord } from '@server/db/repositories/bookmarks';
import { DomainError } from '@server/kernel/errors';
import { BOOKMARK_MESSAGES, type Bookmark } from '@shared/schemas/bookmarks';
import { ERROR_CODES } from '@shared/schemas/common';
import { STORY_MESSAGES } from '@shared/schemas/story';

interface BookmarkDeps {
  repos: Repositories;
  now: () => Date;
}

export function toBookmark(record: BookmarkRecord): Bookmark {
  return { ...record, createdAt: record.createdAt.toISOString(), updatedAt: record.updatedAt.toISOString() };
}

const notFound = (message: string) => new DomainError('notFound', ERROR_CODES.notFound, message);

export function createBookmarkService({ repos, now }: BookmarkDeps) {
  return {
    async list(userId: number): Promise<Bookmark[]> {
      return (await repos.bookmarks.listForUser(userId)).map(toBookmark);
    },

    async create(
      userId: number,
      input: { storyId: number; lastMessageId: number; title: string; description: string | null },
    ): Promise<Bookmark> {
      if (!(await repos.stories.findOwned(input.storyId, userId))) throw notFound(STORY_MESSAGES.storyNotFound);
      if (!(await repos.stories.hasMessage(input.storyId, input.lastMessageId)))
        throw notFound(STORY_MESSAGES.messageNotFound);
      return toBookmark(await repos.bookmarks.create({ userId, ...input, now: now() }));
    },

    async update(
      userId: number,
      id: number,
      changes: { title?: string; description?: string | null },
    ): Promise<Bookmark> {
      const updated = await repos.bookmarks.update(id, userId, { ...changes, now: now() });
      if (!updated) throw notFound(BOOKMARK_MESSAGES.bookmarkNotFound);
      return toBookmark(updated);
    },

    async remove(userId: number, id: number): Promise<void> {
      if (!(await repos.bookmarks.delete(id, userId))) throw notFound(BOOKMARK_MESSAGES.bookmarkNotFound);
    },
  };
}
export type BookmarkService = ReturnType<typeof createBookmarkService>;
