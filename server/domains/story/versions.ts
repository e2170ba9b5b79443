// The player in control of a story: undo, redo, erase from here, editing a message,
// its versions and choosing the one shown, and branching. Every change is the owner's only
// (another user's story or message is 404), waits for no reply being written (409 while one is),
// and loses nothing: versions and set-aside turns stay stored and can be brought back.
import { fallbackTitle } from '@server/ai/llm/titles';
import type { Repositories } from '@server/db/repositories';
import type { ChangeResult, VersionedMessage } from '@server/db/repositories/story-versions';
import { AppError } from '@server/kernel/errors';
import { ERROR_CODES } from '@shared/schemas/common';
import { STORY_TITLE_MAX_LENGTH } from '@shared/constants';
import { STORY_MESSAGES } from '@shared/schemas/story';
import {
  messageTextLimit,
  STORY_VERSION_MESSAGES,
  type MessageChangeResponse,
  type MessageEditBody,
  type MessageVersion,
  type MessageVersionsResponse,
  type StoryBranchResponse,
  type StoryFamily,
} from '@shared/schemas/story-versions';
import { notFound, storyBusy } from './errors';
import type { MemoryBank } from './memory/memory-bank';
import { createOneAtATime } from '../../kernel/one-at-a-time';
import { compactObjectWithArray } from '../../kernel/pretty-json';
import { refusedOverQuota, tooManyVersions, type QuotaService } from '../limits/quotas';

interface StoryVersionDeps {
  repos: Repositories;
  /**
   * The story's state after undo, redo and erase, as GET current-state answers it (JSON bytes): the change was
   * just made on the owner's story with no reply being written, so neither is read again.
   */
  stateOf: (storyId: number, replying: boolean) => Promise<Buffer>;
  /** The painted picture of the version a reply shows (its URL), when pictures are on. */
  pictureOf: (messageId: number) => Promise<string | undefined>;
  now: () => Date;
  /** Makes committed writes durable (PGlite WAL fsync) before a change is answered. */
  flush: () => Promise<void>;
  /** An edit grows the stored text; a branch is a story and its text. */
  quotas: Pick<QuotaService, 'limits' | 'assertRoom'>;
  /** An edit, another version chosen, undo, redo, erase and a branch: the memory bank follows at once, not after the next turn. */
  memoryBank?: Pick<MemoryBank, 'index'>;
}

const BRANCH_SUFFIX = ' (branch)';

const messageMissing = () => new AppError(404, ERROR_CODES.notFound, STORY_MESSAGES.messageNotFound);
const conflict = (message: string) => new AppError(409, ERROR_CODES.conflict, message);
const invalid = (message: string) => new AppError(400, ERROR_CODES.validation, message);

/** Turns a refused change into its HTTP error; answers the result otherwise. */
function accepted<T>(result: ChangeResult<T>): T {
  if (result === 'missing') throw notFound();
  if (result === 'busy') throw storyBusy();
  return result;
}

/** "{title} (branch)" within the title limit: a long title gives up its end, never the suffix. */
export function branchTitle(title: string): string {
  const room = STORY_TITLE_MAX_LENGTH - BRANCH_SUFFIX.length;
  const base = title.length > room ? `${title.slice(0, room - 1).trimEnd()}…` : title;
  return `${base}${BRANCH_SUFFIX}`;
}

/** The longest text this message may hold (the premise's, an action's or a reply's). */
function checkLength(message: VersionedMessage, content: string): void {
  const limit = messageTextLimit(message);
  if (content.length > limit.max) throw invalid(limit.tooLong);
}

export function createStoryVersionService(deps: StoryVersionDeps) {
  const { repos } = deps;
  /** Each player's branches are written one after another (see kernel/one-at-a-time.ts). */
  const oneAtATime = createOneAtATime();

  async function changed(storyId: number): Promise<Buffer> {
    const [state] = await Promise.all([deps.stateOf(storyId, false), deps.flush()]);
    // Undo, redo and erase flip passages that exist: the statistics take the flips in.
    deps.memoryBank?.index(storyId, 'statistics');
    return state;
  }

  /** The message as it now shows, with its shown version's picture when painted. */
  async function shownMessage(message: VersionedMessage): Promise<MessageChangeResponse> {
    const image = message.role === 'assistant' ? await deps.pictureOf(message.id) : undefined;
    return {
      messageId: message.id,
      role: message.role,
      content: message.content,
      version: message.version,
      versions: message.versions,
      ...(image ? { image } : {}),
      ...(message.usage ? { usage: message.usage } : {}),
    };
  }

  return {
    async undo(userId: number, storyId: number): Promise<Buffer> {
      if (accepted(await repos.storyVersions.undo(storyId, userId, deps.now())) === 'nothing')
        throw conflict(STORY_VERSION_MESSAGES.nothingToUndo);
      return changed(storyId);
    },

    async redo(userId: number, storyId: number): Promise<Buffer> {
      if (accepted(await repos.storyVersions.redo(storyId, userId, deps.now())) === 'nothing')
        throw conflict(STORY_VERSION_MESSAGES.nothingToRedo);
      return changed(storyId);
    },

    async erase(userId: number, storyId: number, fromMessageId: number): Promise<Buffer> {
      const result = accepted(await repos.storyVersions.erase(storyId, userId, fromMessageId, deps.now()));
      if (result === 'message') throw messageMissing();
      if (result === 'opening') throw invalid(STORY_VERSION_MESSAGES.openingKept);
      return changed(storyId);
    },

    /**
     * The message's versions as MessageVersionsResponse's JSON bytes, read a page at a time and
     * written with turns of the event loop between runs (up to 4 MB of text).
     */
    async versions(userId: number, storyId: number, messageId: number): Promise<Buffer> {
      const message = await repos.storyVersions.findShown(storyId, userId, messageId);
      if (!message) {
        if (!(await repos.stories.findOwned(storyId, userId))) throw notFound();
        throw messageMissing();
      }
      const head: Omit<MessageVersionsResponse, 'versions'> = {
        messageId: message.id,
        role: message.role,
        version: message.version,
      };
      const pages = repos.storyVersions.versionPages(message);
      async function* versionTexts() {
        for await (const page of pages) {
          for (const { version, kind, content, createdAt } of page)
            yield JSON.stringify({ version, kind, content, createdAt } satisfies MessageVersion);
        }
      }
      return compactObjectWithArray(head, 'versions', versionTexts());
    },

    /** The owner's edit as a new version; 409 with the version shown now when the editor showed another. */
    async edit(
      userId: number,
      storyId: number,
      messageId: number,
      body: MessageEditBody,
    ): Promise<MessageChangeResponse> {
      const result = accepted(
        await refusedOverQuota(deps.quotas.limits, () =>
          repos.storyVersions.edit({
            storyId,
            userId,
            messageId,
            content: body.content,
            baseVersion: body.baseVersion,
            now: deps.now(),
            check: (message) => checkLength(message, body.content),
            maxStoredBytes: deps.quotas.limits.maxStoredBytes,
          }),
        ),
      );
      if (result === 'message') throw messageMissing();
      if (result === 'versions') throw tooManyVersions();
      if ('stale' in result) {
        throw new AppError(
          409,
          ERROR_CODES.conflict,
          STORY_VERSION_MESSAGES.staleEdit,
          {},
          { current: { version: result.stale.version, content: result.stale.content } },
        );
      }
      await deps.flush();
      deps.memoryBank?.index(storyId, 'all');
      return shownMessage(result);
    },

    async select(userId: number, storyId: number, messageId: number, version: number): Promise<MessageChangeResponse> {
      const result = accepted(
        await repos.storyVersions.select({ storyId, userId, messageId, version, now: deps.now() }),
      );
      if (result === 'message') throw messageMissing();
      if (result === 'version') throw new AppError(404, ERROR_CODES.notFound, STORY_VERSION_MESSAGES.versionNotFound);
      await deps.flush();
      deps.memoryBank?.index(storyId, 'all');
      return shownMessage(result);
    },

    async branch(userId: number, storyId: number, messageId: number): Promise<StoryBranchResponse> {
      const story = await repos.stories.findOwned(storyId, userId);
      if (!story) throw notFound();
      const title = branchTitle(story.title ?? fallbackTitle(story.premise));
      // A full account is refused before the copy; the copy checks again, exactly, as it is written.
      await deps.quotas.assertRoom(userId, { story: true, bytes: 0 });
      const { maxStories, maxStoredBytes } = deps.quotas.limits;
      // Written in pieces like an import, so a player's branches are written one after another too.
      const result = await oneAtATime(userId, () =>
        refusedOverQuota(deps.quotas.limits, () =>
          repos.storyBranches.branch({
            storyId,
            userId,
            messageId,
            title,
            now: deps.now(),
            quotas: { maxStories, maxStoredBytes },
          }),
        ),
      );
      if (result === 'missing') throw notFound();
      if (result === 'message') throw messageMissing();
      await deps.flush();
      deps.memoryBank?.index(result, 'all');
      return { storyId: result };
    },

    async family(userId: number, storyId: number): Promise<StoryFamily> {
      const family = await repos.storyBranches.family(storyId, userId);
      if (!family) throw notFound();
      const link = (row: { id: number; title: string | null; premise: string }) => ({
        storyId: row.id,
        title: row.title ?? fallbackTitle(row.premise),
      });
      return {
        origin: family.origin ? link(family.origin) : null,
        branches: family.branches.map((row) => ({ ...link(row), createdAt: row.createdAt })),
      };
    },
  };
}
export type StoryVersionService = ReturnType<typeof createStoryVersionService>;
