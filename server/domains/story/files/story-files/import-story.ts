// A JSON story file taken back as a new story of the importer's: limited per player per hour,
// checked whole first off the event loop (import-reader.ts), so a bad file creates nothing; its
// cards counted against the story's limit, and the story against the player's stories and stored
// text before 5 MB are written and again, exactly, as it is written in pieces, one of a player's
// imports at a time. The narrator it names writes it when the importer may pick that one here, else
// the default. Then its messages are indexed for recall in the background.
import { storedMemory } from '@server/ai/llm/memory-chunks';
import { DomainError, MESSAGES, tooManyRequests } from '@server/kernel/errors';
import type { createOneAtATime } from '@server/kernel/one-at-a-time';
import { ERROR_CODES } from '@shared/schemas/common';
import { STORY_FILE_MESSAGES, STORY_IMPORTS_PER_HOUR, type StoryImportResponse } from '@shared/schemas/story-export';
import type { BibleFileFact } from '@shared/schemas/story-bible';
import { STORY_CARD_MESSAGES } from '@shared/schemas/story-cards';
import { refusedOverQuota } from '../../../limits/quotas';
import { cardBytesOf, withCardTokens } from '../../cards/card-values';
import type { StoryFileDeps } from './types';

const importLimit = { bucket: 'story-import-user', max: STORY_IMPORTS_PER_HOUR, windowMs: 3_600_000 };

/**
 * The bytes of text an imported story stores (as the storage quota counts them): the story's own
 * text, every message and version, and its story bible's facts.
 */
export function storedBytesOf(
  story: {
    premise: string;
    memory: string;
    notes: string;
    bible?: Array<Pick<BibleFileFact, 'entity' | 'attribute' | 'value'>>;
  },
  messages: Array<{ content: string; versions?: Array<{ content: string }> }>,
): number {
  const text = (value: string) => Buffer.byteLength(value);
  const inMessages = messages.reduce(
    (sum, m) => sum + text(m.content) + (m.versions ?? []).reduce((all, v) => all + text(v.content), 0),
    0,
  );
  const inBible = (story.bible ?? []).reduce((sum, f) => sum + text(f.entity) + text(f.attribute) + text(f.value), 0);
  return text(story.premise) + text(story.memory) + text(story.notes) + inMessages + inBible;
}

/**
 * A file's bytes (JSON, up to 5 MB) as a new story of the player's, checked whole first (in a
 * worker thread). `oneAtATime`: each player's imports are written one after another.
 */
export async function importStoryFile(
  { repos, reader, picturesEnabled, limiter, quotas, maxCards, now, narrators, afterImport }: StoryFileDeps,
  oneAtATime: ReturnType<typeof createOneAtATime>,
  userId: number,
  body: Uint8Array,
): Promise<StoryImportResponse> {
  if (!(await limiter.allow(importLimit, String(userId))))
    throw tooManyRequests(STORY_FILE_MESSAGES.tooManyImports, 3600);
  const checked = await reader.readStory(body);
  if (!checked.ok)
    throw checked.notJson
      ? new DomainError('invalid', ERROR_CODES.badJson, MESSAGES.badJson)
      : new DomainError('invalid', ERROR_CODES.validation, checked.message);
  const { story, messages } = checked;
  if (story.cards.length > maxCards)
    throw new DomainError('limited', ERROR_CODES.quotaExceeded, STORY_CARD_MESSAGES.tooManyCards(maxCards));
  const cards = await withCardTokens(story.cards);
  // The file's narrator, while it is one of this server's the player may pick; else the default.
  const narrator = (await narrators.preferred(story.settings?.narrator ?? null, userId))?.id;
  const settings = story.settings && { ...story.settings, narrator };
  const storyId = await oneAtATime(userId, async () => {
    // A full account is refused before 5 MB are written; the write checks again, exactly.
    await quotas.assertRoom(userId, { story: true, bytes: storedBytesOf(story, messages) + cardBytesOf(cards) });
    const { maxStories, maxStoredBytes } = quotas.limits;
    return refusedOverQuota(quotas.limits, () =>
      repos.storyFiles.importStory({
        userId,
        ...story,
        // A file's memory is one text: the imported story's memory is one chunk.
        memory: storedMemory([story.memory]),
        settings,
        cards,
        now: now(),
        messages: picturesEnabled ? messages : messages.map((m) => ({ ...m, image: undefined })),
        quotas: { maxStories, maxStoredBytes },
      }),
    );
  });
  // Its messages are indexed for recall in the background, a few batches at a time.
  afterImport?.(storyId);
  return { storyId, title: story.title };
}
