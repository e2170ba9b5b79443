// A story as a file: Markdown to read (the turns as prose, pictures linked) and JSON to restore
// (shared/schemas/story-export.ts, documented in docs/story-format.md), and a JSON file taken back
// as a new story of the importer's, validated whole first (in the import worker: import-reader.ts),
// so a bad file creates nothing. An export reads the story as one snapshot and writes the file in chunks as the download goes: the
// file as a whole is never held, only the story's rows.
import { memoryText, storedMemory } from '@server/ai/llm/memory-chunks';
import { fallbackTitle } from '@server/ai/llm/titles';
import type { Repositories } from '@server/db/repositories';
import type { SnapshotMessage, StorySnapshot } from '@server/db/repositories/story-files';
import { AppError, MESSAGES, tooManyRequests } from '@server/kernel/errors';
import { ERROR_CODES } from '@shared/schemas/common';
import {
  STORY_FILE_FORMAT,
  STORY_FILE_MESSAGES,
  STORY_FILE_VERSION,
  STORY_IMPORTS_PER_HOUR,
  type StoryFileMessage,
  type StoryImportResponse,
} from '@shared/schemas/story-export';
import type { BibleFileFact } from '@shared/schemas/story-bible';
import { STORY_CARD_MESSAGES, type StoryCardFields } from '@shared/schemas/story-cards';
import { imageUrl } from '../../images';
import { refusedOverQuota, type QuotaService } from '../../limits/quotas';
import type { RequestLimiter } from '../../limits/request-limits';
import { notFound } from '../errors';
import { createOneAtATime } from '../../../kernel/one-at-a-time';
import { chunked, prettyJson, prettyObjectWithArray } from '../../../kernel/pretty-json';
import type { ImportReader } from './import-reader';
import { cardBytesOf, cardFields, withCardTokens } from '../cards/card-values';
import { storedTemperature } from '../generation-settings';

interface StoryFileDeps {
  repos: Repositories;
  /** Checks an imported file off the event loop (import-reader.ts). */
  reader: Pick<ImportReader, 'readStory'>;
  /** Whether pictures are on: a file carries them only then. */
  picturesEnabled: boolean;
  limiter: Pick<RequestLimiter, 'allow'>;
  /** An import is a story and its text. */
  quotas: Pick<QuotaService, 'limits' | 'assertRoom'>;
  /** Story cards a story may hold (STORY_MAX_CARDS): a file with more is refused. */
  maxCards: number;
  now: () => Date;
  /** Told of each story imported (the memory bank indexes it). */
  afterImport?: (storyId: number) => void;
}

export interface DownloadedFile {
  filename: string;
  contentType: string;
  /** The file's text, whole or in chunks written as the download goes. */
  body: string | AsyncIterable<string>;
}

/** A story read for its file: the snapshot, its cards and bible, its title, when it began and how many messages its memory covers. */
export interface ExportedStory {
  snapshot: StorySnapshot;
  cards: StoryCardFields[];
  /** The facts of its shown messages, each by its message's index in the snapshot. */
  bible: BibleFileFact[];
  title: string;
  createdAt: Date;
  folded: number;
}

/** A file name from a title: lower-case ASCII words joined by dashes. */
export function fileSlug(title: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return slug || 'story';
}

/**
 * Markdown's own characters in story text are shown, not obeyed: no emphasis, links, HTML or
 * tables, and no heading, quote or list where a line starts with #, >, -, + or "1.".
 */
export function markdownText(text: string): string {
  return text
    .replace(/[\\`*_[\]<>|]/g, '\\$&')
    .replace(/^(\s*)(?:([#>+-])|(\d+)\.)/gm, (_all, space: string, mark?: string, digits?: string) =>
      mark ? `${space}\\${mark}` : `${space}${digits}\\.`,
    );
}

const dateFormat = new Intl.DateTimeFormat('en-US', {
  month: 'long',
  day: 'numeric',
  year: 'numeric',
  timeZone: 'UTC',
});

/** A player's text on one Markdown line (a premise, an action, a picture's description). */
const oneLine = (text: string) => markdownText(text).replace(/\n+/g, ' ');

const importLimit = { bucket: 'story-import-user', max: STORY_IMPORTS_PER_HOUR, windowMs: 3_600_000 };

/** A message as the JSON file carries it (the keys in the documented order). */
function fileMessage(m: SnapshotMessage): StoryFileMessage {
  return {
    role: m.role,
    content: m.content,
    turn: m.turn,
    isInitial: m.isInitial,
    createdAt: m.createdAt.toISOString(),
    ...(m.picture ? { image: { hash: m.picture.hash, alt: m.picture.scene } } : {}),
    ...(m.history
      ? {
          versions: m.history.map(({ kind, content, createdAt }) => ({ kind, content, createdAt })),
          version: m.version,
        }
      : {}),
  };
}

/** The lines of a text, joined by line breaks, one piece per line. */
function* joinedLines(lines: Iterable<string>): Generator<string> {
  let first = true;
  for (const line of lines) {
    yield first ? line : `\n${line}`;
    first = false;
  }
}

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

export function createStoryFileService({
  repos,
  reader,
  picturesEnabled,
  limiter,
  quotas,
  maxCards,
  now,
  afterImport,
}: StoryFileDeps) {
  /** Each player's imports are written one after another (see kernel/one-at-a-time.ts). */
  const oneAtATime = createOneAtATime();

  /** The owner's story as one snapshot, or null when it is not theirs (or went meanwhile); every version of each message unless `versions` is false (a Markdown file shows only the shown one). */
  async function read(userId: number, storyId: number, versions = true): Promise<ExportedStory | null> {
    const snapshot = await repos.storyFiles.snapshot(storyId, userId, picturesEnabled, { versions });
    if (!snapshot) return null;
    const cards = (await repos.storyCards.list(storyId)).map(cardFields);
    const messageIndex = new Map(snapshot.messages.map((m, i) => [m.id, i]));
    const bible = (await repos.storyBible.shown(storyId)).flatMap(
      ({ messageId, turn, entity, attribute, value, pinned }) => {
        const message = messageIndex.get(messageId);
        return message === undefined ? [] : [{ message, turn, entity, attribute, value, pinned }];
      },
    );
    const folded = snapshot.messages.filter((m) => m.id <= snapshot.memoryThroughId).length;
    const createdAt = snapshot.messages[0]?.createdAt ?? now();
    return { snapshot, cards, bible, folded, createdAt, title: snapshot.title ?? fallbackTitle(snapshot.premise) };
  }

  async function load(userId: number, storyId: number, versions = true): Promise<ExportedStory> {
    const story = await read(userId, storyId, versions);
    if (!story) throw notFound();
    return story;
  }

  /**
   * The story's JSON file as JSON.stringify(file, null, 2) writes it `depth` levels deep, in
   * pieces: its fields (after `before`, e.g. the account file's storyId), then one message at a time.
   */
  function storyFileText(
    { snapshot, cards, bible, title, createdAt, folded }: ExportedStory,
    depth: number,
    before: Record<string, unknown> = {},
  ): AsyncGenerator<string> {
    const head = {
      ...before,
      format: STORY_FILE_FORMAT,
      version: STORY_FILE_VERSION,
      exportedAt: now().toISOString(),
      story: {
        title,
        premise: snapshot.premise,
        memory: memoryText(snapshot.memory),
        memoryCovers: folded,
        notes: snapshot.notes,
        createdAt: createdAt.toISOString(),
        settings: {
          replyLength: snapshot.replyLength,
          temperature: storedTemperature(snapshot.temperature),
        },
      },
      cards,
      // Only when there is one: files of stories without facts read as before.
      ...(bible.length > 0 ? { bible } : {}),
    };
    function* messages() {
      for (const message of snapshot.messages) yield [prettyJson(fileMessage(message), depth + 2)];
    }
    return prettyObjectWithArray(head, 'messages', messages(), depth);
  }

  function* markdownLines({ snapshot, title }: ExportedStory, baseUrl: string): Generator<string> {
    const turns = snapshot.messages.filter((m) => m.role === 'user' && !m.isInitial).length;
    yield* [
      `# ${markdownText(title)}`,
      '',
      `*Played on Taleweaver, exported ${dateFormat.format(now())}. ${turns === 1 ? '1 turn' : `${turns} turns`}.*`,
      '',
    ];
    for (const message of snapshot.messages) {
      if (message.isInitial) yield* [`> **Premise:** ${oneLine(message.content)}`, ''];
      else if (message.role === 'user') yield* ['---', '', `**You:** ${oneLine(message.content)}`, ''];
      else {
        yield* message.content.split(/\n{2,}/).flatMap((paragraph) => [markdownText(paragraph.trim()), '']);
        if (message.picture)
          yield* [`![${oneLine(message.picture.scene)}](${baseUrl}${imageUrl(message.picture.hash)})`, ''];
      }
    }
  }

  return {
    read,
    storyFileText,

    /** The story as its JSON file, written as the download goes (a missing story is a 404 before anything is sent). */
    async exportJson(userId: number, storyId: number): Promise<DownloadedFile> {
      const story = await load(userId, storyId);
      async function* file() {
        yield* storyFileText(story, 0);
        yield '\n';
      }
      return {
        filename: `${fileSlug(story.title)}.taleweaver.json`,
        contentType: 'application/json; charset=utf-8',
        body: chunked(file()),
      };
    },

    async exportMarkdown(userId: number, storyId: number, baseUrl: string): Promise<DownloadedFile> {
      const story = await load(userId, storyId, false);
      return {
        filename: `${fileSlug(story.title)}.md`,
        contentType: 'text/markdown; charset=utf-8',
        body: chunked(joinedLines(markdownLines(story, baseUrl))),
      };
    },

    /** A file's bytes (JSON, up to 5 MB) as a new story of the player's, checked whole first (in a worker thread). */
    async importFile(userId: number, body: Uint8Array): Promise<StoryImportResponse> {
      if (!(await limiter.allow(importLimit, String(userId))))
        throw tooManyRequests(STORY_FILE_MESSAGES.tooManyImports, 3600);
      const checked = await reader.readStory(body);
      if (!checked.ok)
        throw checked.notJson
          ? new AppError(400, ERROR_CODES.badJson, MESSAGES.badJson)
          : new AppError(400, ERROR_CODES.validation, checked.message);
      const { story, messages } = checked;
      if (story.cards.length > maxCards)
        throw new AppError(429, ERROR_CODES.quotaExceeded, STORY_CARD_MESSAGES.tooManyCards(maxCards));
      const cards = await withCardTokens(story.cards);
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
    },
  };
}
export type StoryFileService = ReturnType<typeof createStoryFileService>;
