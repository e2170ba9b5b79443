// The player's own data: everything of theirs as one JSON download, and deleting the account. The
// download is written as it is read, one story at a time (each its own consistent snapshot), so
// the server holds one story, not all of them, however many there are; if a story cannot be read
// the download stops there, unfinished (its JSON unclosed), never a complete-looking file. The
// deletion asks for the password (a session alone must not be able to erase a player), ends every
// session on every instance, drops their shares from every cache and removes pictures nothing else
// shows; only usage rows stay, anonymous, in the operator's totals.
import type { Repositories } from '@server/db/repositories';
import { DomainError, tooManyRequests, unauthenticated } from '@server/kernel/errors';
import { ERROR_CODES } from '@shared/schemas/common';
import { MY_DATA_FORMAT, MY_DATA_MESSAGES, MY_DATA_VERSION } from '@shared/schemas/my-data';
import type { AccountService } from './accounts';
import type { BookmarkService } from '../bookmarks/bookmarks';
import type { LibraryService } from '../story/library';
import type { PasswordHasher } from './passwords';
import type { PreferencesService } from '../preferences/preferences';
import type { RequestLimiter } from '../limits/request-limits';
import type { SessionService } from './sessions';
import { chunked, prettyObjectWithArray } from '../../kernel/pretty-json';
import { fileSlug, type DownloadedFile, type StoryFileService } from '../story/files/story-files';

/** Wrong passwords per player per hour before deletion is refused for a while. */
export const DELETE_ATTEMPTS_PER_HOUR = 10;

interface MyDataDeps {
  repos: Repositories;
  accounts: Pick<AccountService, 'getUser'>;
  preferences: Pick<PreferencesService, 'get'>;
  bookmarks: Pick<BookmarkService, 'list'>;
  storyFiles: Pick<StoryFileService, 'read' | 'storyFileText'>;
  library: Pick<LibraryService, 'removeAccount'>;
  sessions: Pick<SessionService, 'endAllFor'>;
  limiter: RequestLimiter;
  passwords: Pick<PasswordHasher, 'verify'>;
  now: () => Date;
}

export function createMyDataService(deps: MyDataDeps) {
  const { repos } = deps;
  return {
    async export(userId: number): Promise<DownloadedFile> {
      const user = await deps.accounts.getUser(userId);
      const [preferences, bookmarks, shares, storyIds] = await Promise.all([
        deps.preferences.get(userId),
        deps.bookmarks.list(userId),
        repos.library.sharesOf(userId),
        repos.library.storyIds(userId),
      ]);
      const head = {
        format: MY_DATA_FORMAT,
        version: MY_DATA_VERSION,
        exportedAt: deps.now().toISOString(),
        account: {
          username: user.username,
          email: user.email,
          createdAt: user.createdAt,
          lastActive: user.lastActive,
          isAdmin: user.isAdmin,
        },
        tokenUsage: user.tokenUsage,
        preferences,
        bookmarks,
        shares,
      };
      const { storyFiles } = deps;
      // Each story is read when the download reaches it; one deleted meanwhile is left out.
      async function* stories() {
        for (const storyId of storyIds) {
          const story = await storyFiles.read(userId, storyId);
          if (story) yield storyFiles.storyFileText(story, 2, { storyId });
        }
      }
      async function* file() {
        yield* prettyObjectWithArray(head, 'stories', stories());
        yield '\n';
      }
      return {
        filename: `taleweaver-data-${fileSlug(user.username)}.json`,
        contentType: 'application/json; charset=utf-8',
        body: chunked(file()),
      };
    },

    async deleteAccount(userId: number, password: string): Promise<void> {
      const credentials = await repos.users.findCredentialsById(userId);
      if (!credentials) throw unauthenticated();
      if (
        !(await deps.limiter.allow(
          { bucket: 'account-delete-user', max: DELETE_ATTEMPTS_PER_HOUR, windowMs: 3_600_000 },
          `user:${userId}`,
        ))
      ) {
        throw tooManyRequests('Too many attempts. Please try again later.', 3600);
      }
      if (!(await deps.passwords.verify(credentials.passwordHash, password)))
        throw new DomainError('invalid', ERROR_CODES.invalidCredentials, MY_DATA_MESSAGES.passwordWrong);
      await deps.library.removeAccount(userId);
      await deps.sessions.endAllFor(userId);
    },
  };
}
export type MyDataService = ReturnType<typeof createMyDataService>;
