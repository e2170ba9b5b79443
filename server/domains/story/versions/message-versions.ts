// A message's versions: listing them (streamed, up to 4 MB of text), the owner's edit as a new
// version (refused when the editor showed a version that is no longer shown, or the message holds
// as many as it may), and choosing the version shown. An edit and a choice answer the message as
// it now shows, with its picture, and have the memory bank index what it now shows.
import type { VersionedMessage } from '@server/db/repositories/story-versions';
import { DomainError } from '@server/kernel/errors';
import { compactObjectWithArray } from '@server/kernel/pretty-json';
import { ERROR_CODES } from '@shared/schemas/common';
import {
  messageTextLimit,
  STORY_VERSION_MESSAGES,
  type MessageChangeResponse,
  type MessageEditBody,
  type MessageVersion,
  type MessageVersionsResponse,
} from '@shared/schemas/story-versions';
import { refusedOverQuota, tooManyVersions } from '../../limits/quotas';
import { notFound } from '../errors';
import { accepted, invalid, messageMissing } from './change-refusals';
import type { StoryVersionDeps } from './version-deps';

/** The longest text this message may hold (the premise's, an action's or a reply's). */
function checkLength(message: VersionedMessage, content: string): void {
  const limit = messageTextLimit(message);
  if (content.length > limit.max) throw invalid(limit.tooLong);
}

/** The message as it now shows, with its shown version's picture when painted. */
async function shownMessage(
  deps: Pick<StoryVersionDeps, 'pictureOf'>,
  message: VersionedMessage,
): Promise<MessageChangeResponse> {
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

/**
 * The message's versions as MessageVersionsResponse's JSON bytes, read a page at a time and
 * written with turns of the event loop between runs (up to 4 MB of text).
 */
export async function messageVersions(
  { repos }: Pick<StoryVersionDeps, 'repos'>,
  userId: number,
  storyId: number,
  messageId: number,
): Promise<Buffer> {
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
}

/** The owner's edit as a new version; 409 with the version shown now when the editor showed another. */
export async function editMessage(
  deps: StoryVersionDeps,
  userId: number,
  storyId: number,
  messageId: number,
  body: MessageEditBody,
): Promise<MessageChangeResponse> {
  const result = accepted(
    await refusedOverQuota(deps.quotas.limits, () =>
      deps.repos.storyVersions.edit({
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
    throw new DomainError('conflict', ERROR_CODES.conflict, STORY_VERSION_MESSAGES.staleEdit, {
      extra: { current: { version: result.stale.version, content: result.stale.content } },
    });
  }
  await deps.flush();
  deps.memoryBank?.index(storyId, 'all');
  return shownMessage(deps, result);
}

/** Shows another of the message's versions. */
export async function selectVersion(
  deps: StoryVersionDeps,
  userId: number,
  storyId: number,
  messageId: number,
  version: number,
): Promise<MessageChangeResponse> {
  const result = accepted(
    await deps.repos.storyVersions.select({ storyId, userId, messageId, version, now: deps.now() }),
  );
  if (result === 'message') throw messageMissing();
  if (result === 'version')
    throw new DomainError('notFound', ERROR_CODES.notFound, STORY_VERSION_MESSAGES.versionNotFound);
  await deps.flush();
  deps.memoryBank?.index(storyId, 'all');
  return shownMessage(deps, result);
}
