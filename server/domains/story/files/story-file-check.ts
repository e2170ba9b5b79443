// Whether a text is a story file, and the story it holds, ready to import: JSON.parse, text holding
// U+0000 anywhere (PostgreSQL's text cannot store it), the file schema
// (shared/schemas/story-export.ts) and the one sentence that says what is wrong. Pure, so it
// runs in the import worker (import-worker.ts), off the event loop: a 5 MB file held
// the loop for 60-80 ms in JSON.parse and zod.
import type { z } from 'zod';
import type { ImportedMessage, ImportedStory } from '@server/db/repositories/story-files';
import { jsonNulPath, nulPlace } from '@server/kernel/nul-text';
import { keyProblem } from '../cards/regex-keys';
import { regexKeysOf } from '../cards/card-values';
import { STORY_CARD_MESSAGES, STORY_REGEX_KEYS_MAX } from '@shared/schemas/story-cards';

export type { ImportedStory };
import {
  STORY_FILE_FORMAT,
  STORY_FILE_MESSAGES,
  STORY_FILE_VERSION,
  storyFileSchema,
  type StoryFileMessage,
} from '@shared/schemas/story-export';

export type StoryFileCheck =
  | { ok: true; story: ImportedStory; messages: StoryFileMessage[] }
  | { ok: false; notJson: true }
  | { ok: false; notJson?: false; message: string };

/** The first problem of a file that is not a story (as the schema found it), in a sentence a player can act on. */
export function whyNotAStory(raw: unknown, error: z.ZodError): string {
  if (raw && typeof raw === 'object' && (raw as { format?: unknown }).format === STORY_FILE_FORMAT) {
    const version = (raw as { version?: unknown }).version;
    if (typeof version === 'number' && version > STORY_FILE_VERSION) return STORY_FILE_MESSAGES.newerVersion;
  }
  const issue = error.issues[0];
  const where = issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
  return `${STORY_FILE_MESSAGES.notAStoryFile} (${issue?.message ?? 'unreadable'}${where}).`;
}

/** Reads a file's text as the app's JSON body parser would (an empty body is `{}`), then checks it whole. */
export function checkStoryFile(text: string): StoryFileCheck {
  let raw: unknown = {};
  if (text.trim() !== '') {
    try {
      raw = JSON.parse(text);
    } catch {
      return { ok: false, notJson: true };
    }
  }
  const nul = jsonNulPath(text, raw);
  if (nul)
    return {
      ok: false,
      message: `${STORY_FILE_MESSAGES.notAStoryFile} (must not contain the NUL character (U+0000) at ${nulPlace(nul)}).`,
    };
  const parsed = storyFileSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, message: whyNotAStory(raw, parsed.error) };
  const { story, messages, cards = [], bible = [] } = parsed.data;
  // Counted before any key is compiled: a file's thousands of patterns cost nothing to refuse.
  if (cards.reduce((sum, card) => sum + regexKeysOf(card), 0) > STORY_REGEX_KEYS_MAX)
    return { ok: false, message: `${STORY_FILE_MESSAGES.notAStoryFile} (${STORY_CARD_MESSAGES.tooManyRegexKeys})` };
  for (const card of cards) {
    const problem = keyProblem(card);
    if (problem)
      return { ok: false, message: `${STORY_FILE_MESSAGES.notAStoryFile} (card '${card.name}': ${problem})` };
  }
  return { ok: true, story: { ...story, createdAt: new Date(story.createdAt), cards, bible }, messages };
}

/** A checked message as the import writes it. */
export function importedMessage(m: StoryFileMessage): ImportedMessage {
  return {
    ...m,
    createdAt: new Date(m.createdAt),
    versions: m.versions?.map((v) => ({ ...v, createdAt: new Date(v.createdAt) })),
  };
}
