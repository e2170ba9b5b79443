// A story as a file: Markdown to read (the turns as prose, pictures linked) and JSON to restore
// (shared/schemas/story-export.ts, documented in docs/story-format.md), and a JSON file taken back
// as a new story of the importer's, validated whole first, so a bad file creates nothing.
import type { z } from 'zod';
import { fallbackTitle } from '@server/ai/llm/builtin/memory';
import type { Repositories } from '@server/db/repositories';
import { AppError, tooManyRequests } from '@server/errors';
import { ERROR_CODES } from '@shared/schemas/common';
import {
  STORY_FILE_FORMAT,
  STORY_FILE_MESSAGES,
  STORY_FILE_VERSION,
  STORY_IMPORTS_PER_HOUR,
  storyFileSchema,
  type StoryFile,
  type StoryImportResponse,
} from '@shared/schemas/story-export';
import { imageUrl } from './images';
import { refusedOverQuota, type QuotaService } from './quotas';
import type { RequestLimiter } from './request-limiter';
import { notFound } from './narration';

interface StoryFileDeps {
  repos: Repositories;
  /** Whether pictures are on: a file carries them only then. */
  picturesEnabled: boolean;
  limiter: Pick<RequestLimiter, 'allow'>;
  /** An import is a story and its text. */
  quotas: Pick<QuotaService, 'limits' | 'assertRoom'>;
  now: () => Date;
}

export interface DownloadedFile {
  filename: string;
  contentType: string;
  body: string;
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
    .replace(/^(\s*)(?:([#>+-])|(\d+)\.)/gm, (_all, space: string, mark?: string, digits?: string) => (mark ? `${space}\\${mark}` : `${space}${digits}\\.`));
}

const dateFormat = new Intl.DateTimeFormat('en-US', { month: 'long', day: 'numeric', year: 'numeric', timeZone: 'UTC' });

/** The first problem of a file that is not a story (as the schema found it), in a sentence a player can act on. */
function whyNotAStory(raw: unknown, error: z.ZodError): string {
  if (raw && typeof raw === 'object' && (raw as { format?: unknown }).format === STORY_FILE_FORMAT) {
    const version = (raw as { version?: unknown }).version;
    if (typeof version === 'number' && version > STORY_FILE_VERSION) return STORY_FILE_MESSAGES.newerVersion;
  }
  const issue = error.issues[0];
  const where = issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
  return `${STORY_FILE_MESSAGES.notAStoryFile} (${issue?.message ?? 'unreadable'}${where}).`;
}

/** A player's text on one Markdown line (a premise, an action, a picture's description). */
const oneLine = (text: string) => markdownText(text).replace(/\n+/g, ' ');

const importLimit = { bucket: 'story-import-user', max: STORY_IMPORTS_PER_HOUR, windowMs: 3_600_000 };

/** The bytes of text a story file stores (as the storage quota counts them): the story's own text, every message and version. */
export function storedBytesOf(file: StoryFile): number {
  const text = (value: string) => Buffer.byteLength(value);
  const messages = file.messages.reduce((sum, m) => sum + text(m.content) + (m.versions ?? []).reduce((all, v) => all + text(v.content), 0), 0);
  return text(file.story.premise) + text(file.story.memory) + text(file.story.notes) + messages;
}

export function createStoryFileService({ repos, picturesEnabled, limiter, quotas, now }: StoryFileDeps) {
  async function load(userId: number, storyId: number) {
    const story = await repos.stories.findOwned(storyId, userId);
    if (!story) throw notFound();
    const messages = await repos.stories.listMessages(storyId);
    const pictures = picturesEnabled ? await repos.images.readyHashes(messages.filter((m) => m.role === 'assistant').map((m) => m.id)) : new Map<number, { hash: string; scene: string }>();
    const folded = messages.filter((m) => m.id <= story.memoryThroughId).length;
    const versions = await repos.storyVersions.versionsOfMessages(messages.filter((m) => m.versions > 1).map((m) => m.id));
    const createdAt = messages[0]?.createdAt ?? now();
    return { story, messages, pictures, versions, folded, createdAt, title: story.title ?? fallbackTitle(story.premise) };
  }

  return {
    /** The story as the JSON file's document. */
    async storyFile(userId: number, storyId: number): Promise<{ title: string; file: StoryFile }> {
      const { story, messages, pictures, versions, folded, createdAt, title } = await load(userId, storyId);
      const file: StoryFile = {
        format: STORY_FILE_FORMAT,
        version: STORY_FILE_VERSION,
        exportedAt: now().toISOString(),
        story: { title, premise: story.premise, memory: story.memory, memoryCovers: folded, notes: story.notes, createdAt: createdAt.toISOString() },
        messages: messages.map((m) => {
          const picture = pictures.get(m.id);
          const history = versions.get(m.id);
          return {
            role: m.role,
            content: m.content,
            turn: m.turn,
            isInitial: m.isInitial,
            createdAt: m.createdAt.toISOString(),
            ...(picture ? { image: { hash: picture.hash, alt: picture.scene } } : {}),
            ...(history ? { versions: history.map(({ kind, content, createdAt }) => ({ kind, content, createdAt })), version: m.version } : {}),
          };
        }),
      };
      return { title, file };
    },

    async exportJson(userId: number, storyId: number): Promise<DownloadedFile> {
      const { title, file } = await this.storyFile(userId, storyId);
      return { filename: `${fileSlug(title)}.taleweaver.json`, contentType: 'application/json; charset=utf-8', body: `${JSON.stringify(file, null, 2)}\n` };
    },

    async exportMarkdown(userId: number, storyId: number, baseUrl: string): Promise<DownloadedFile> {
      const { messages, pictures, title } = await load(userId, storyId);
      const turns = messages.filter((m) => m.role === 'user' && !m.isInitial).length;
      const lines = [`# ${markdownText(title)}`, '', `*Played on Taleweaver, exported ${dateFormat.format(now())}. ${turns === 1 ? '1 turn' : `${turns} turns`}.*`, ''];
      for (const message of messages) {
        if (message.isInitial) lines.push(`> **Premise:** ${oneLine(message.content)}`, '');
        else if (message.role === 'user') lines.push('---', '', `**You:** ${oneLine(message.content)}`, '');
        else {
          lines.push(...message.content.split(/\n{2,}/).flatMap((paragraph) => [markdownText(paragraph.trim()), '']));
          const picture = pictures.get(message.id);
          if (picture) lines.push(`![${oneLine(picture.scene)}](${baseUrl}${imageUrl(picture.hash)})`, '');
        }
      }
      return { filename: `${fileSlug(title)}.md`, contentType: 'text/markdown; charset=utf-8', body: lines.join('\n') };
    },

    async importFile(userId: number, raw: unknown): Promise<StoryImportResponse> {
      if (!(await limiter.allow(importLimit, String(userId)))) throw tooManyRequests(STORY_FILE_MESSAGES.tooManyImports, 3600);
      const parsed = storyFileSchema.safeParse(raw);
      if (!parsed.success) throw new AppError(400, ERROR_CODES.validation, whyNotAStory(raw, parsed.error));
      const { story, messages } = parsed.data;
      // A full account is refused before 5 MB are written; the write checks again, exactly.
      await quotas.assertRoom(userId, { story: true, bytes: storedBytesOf(parsed.data) });
      const { maxStories, maxStoredBytes } = quotas.limits;
      const storyId = await refusedOverQuota(quotas.limits, () => repos.storyFiles.importStory({
        userId,
        title: story.title,
        premise: story.premise,
        memory: story.memory,
        memoryCovers: story.memoryCovers,
        notes: story.notes,
        createdAt: new Date(story.createdAt),
        now: now(),
        messages: messages.map((m) => ({
          ...m,
          createdAt: new Date(m.createdAt),
          image: picturesEnabled ? m.image : undefined,
          versions: m.versions?.map((v) => ({ ...v, createdAt: new Date(v.createdAt) })),
        })),
        quotas: { maxStories, maxStoredBytes },
      }));
      return { storyId, title: story.title };
    },
  };
}
export type StoryFileService = ReturnType<typeof createStoryFileService>;
