// A story as a file: Markdown to read, JSON to restore. The JSON is the documented,
// versioned format below ("taleweaver.story", version 4: version 1, plus each message's versions in
// version 2, plus the story cards in version 3, and optionally the story bible's facts, plus the
// narrator that writes it in version 4);
// POST /api/story/import takes either back as a new story, validated whole. See docs/story-format.md.
import { z } from 'zod';
import { REPLY_LENGTHS, TEMPERATURE_MAX, TEMPERATURE_MIN } from './story-settings';
import { STORY_PREMISE_MAX_LENGTH, STORY_TITLE_MAX_LENGTH } from '../constants';
import { STORY_NOTES_MAX_LENGTH, STORY_SUMMARY_MAX_LENGTH } from './story-memory';
import { bibleFileFactSchema, STORY_BIBLE_MAX_FACTS } from './story-bible';
import { neverSent, STORY_CARD_MESSAGES, storyCardFieldsSchema } from './story-cards';
import { messageVersionKindSchema } from './story-versions';
import { NARRATOR_ID_PATTERN } from './narrators';

export const STORY_FILE_FORMAT = 'taleweaver.story';
export const STORY_FILE_VERSION = 4;
/** The cards a file may hold: the importing server's STORY_MAX_CARDS is checked after. */
export const STORY_FILE_MAX_CARDS = 10_000;
/** The versions of one message a file may hold. */
export const STORY_FILE_MAX_VERSIONS = 200;
export const STORY_IMPORT_MAX_BYTES = 5 * 1024 * 1024;
/** Imports per player per hour: each may write 5 MB of stories. */
export const STORY_IMPORTS_PER_HOUR = 30;
/** A message's text in a file: a reply is rarely over 5,000 characters; this only bounds the import. */
export const STORY_FILE_MESSAGE_MAX_LENGTH = 20_000;
export const STORY_FILE_MAX_MESSAGES = 10_000;
export const STORY_EXPORT_FORMATS = ['markdown', 'json'] as const;

export const STORY_FILE_MESSAGES = {
  formatInvalid: 'Format must be markdown or json',
  notAStoryFile: 'This file is not a story exported from Taleweaver, or it is damaged',
  notJson: 'This file is not a story exported from Taleweaver: it is not JSON.',
  tooLarge: 'The file is larger than 5 MB.',
  newerVersion: 'This story file was made by a newer Taleweaver. Update Taleweaver to import it.',
  tooManyImports: `You can import at most ${STORY_IMPORTS_PER_HOUR} stories an hour. Please try again later.`,
} as const;

// PostgreSQL's text cannot hold U+0000: the importer refuses a file holding it anywhere, by where it
// is, before this schema reads it (server/domains/story/files/story-file-check.ts).
const isoDate = z.iso.datetime({ offset: true });

export const storyFileMessageSchema = z.object({
  role: z.enum(['user', 'assistant']),
  content: z.string().min(1).max(STORY_FILE_MESSAGE_MAX_LENGTH),
  /** The player's action number this message belongs to; the premise and the opening are turn 0. A file holds at most that many actions. */
  turn: z.number().int().min(0).max(STORY_FILE_MAX_MESSAGES),
  /** True only for the first message: the premise as the player typed it. */
  isInitial: z.boolean(),
  createdAt: isoDate,
  /** The scene picture: its content hash on the server it came from, and its description. */
  image: z
    .object({
      hash: z.string().regex(/^[a-f0-9]{64}$/),
      alt: z.string().max(2000),
    })
    .optional(),
  /** Version 2: every version of a message that has several, oldest first, and which one is shown (1-based); `content` is that one's. */
  versions: z
    .array(
      z.object({
        kind: messageVersionKindSchema,
        content: z.string().min(1).max(STORY_FILE_MESSAGE_MAX_LENGTH),
        createdAt: isoDate,
      }),
    )
    .min(2)
    .max(STORY_FILE_MAX_VERSIONS)
    .optional(),
  version: z.number().int().min(1).max(STORY_FILE_MAX_VERSIONS).optional(),
});
export type StoryFileMessage = z.infer<typeof storyFileMessageSchema>;

export const storyFileSchema = z
  .object({
    format: z.literal(STORY_FILE_FORMAT),
    /** Raised whenever the format changes; an importer refuses versions newer than its own. */
    version: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(STORY_FILE_VERSION)]),
    exportedAt: isoDate,
    story: z.object({
      title: z.string().trim().min(1).max(STORY_TITLE_MAX_LENGTH),
      premise: z.string().trim().min(1).max(STORY_PREMISE_MAX_LENGTH),
      /** The memory: the summary of the folded turns. */
      memory: z.string().max(STORY_SUMMARY_MAX_LENGTH),
      /** How many of `messages` the memory summarises (they stay in the file, verbatim). */
      memoryCovers: z.number().int().min(0).max(STORY_FILE_MAX_MESSAGES),
      notes: z.string().max(STORY_NOTES_MAX_LENGTH),
      createdAt: isoDate,
      /** Optional: the story's generation settings; temperature null follows the server's. */
      settings: z
        .object({
          replyLength: z.enum(REPLY_LENGTHS),
          temperature: z.number().min(TEMPERATURE_MIN).max(TEMPERATURE_MAX).nullable(),
          /** Version 4: the id of the catalogue narrator that wrote it; an importer keeps it only if it may pick it. */
          narrator: z.string().regex(NARRATOR_ID_PATTERN).optional(),
        })
        .optional(),
    }),
    /** Version 3: the story's cards, each as the cards panel writes one (fields left out take their defaults). */
    cards: z
      .array(storyCardFieldsSchema.refine((card) => !neverSent(card), STORY_CARD_MESSAGES.neverSent))
      .max(STORY_FILE_MAX_CARDS)
      .optional(),
    /** Optional in version 3: the story bible's facts, each tied to a message of the file by its index. */
    bible: z.array(bibleFileFactSchema).max(STORY_BIBLE_MAX_FACTS).optional(),
    messages: z.array(storyFileMessageSchema).min(1).max(STORY_FILE_MAX_MESSAGES),
  })
  .superRefine((file, issues) => {
    const [first] = file.messages;
    // An empty list is refused by its own min(1); there is no first message to look at.
    if (first && (!first.isInitial || first.role !== 'user' || first.turn !== 0)) {
      issues.addIssue({
        code: 'custom',
        path: ['messages', 0],
        message: 'the first message must be the premise (role user, turn 0, isInitial true)',
      });
    }
    for (const [i, message] of file.messages.entries()) {
      if (i > 0 && message.isInitial)
        issues.addIssue({
          code: 'custom',
          path: ['messages', i, 'isInitial'],
          message: 'only the first message is the premise',
        });
      if (i > 0 && message.turn < file.messages[i - 1].turn)
        issues.addIssue({ code: 'custom', path: ['messages', i, 'turn'], message: 'turns must not go backwards' });
      if ((message.versions === undefined) !== (message.version === undefined)) {
        issues.addIssue({
          code: 'custom',
          path: ['messages', i, 'version'],
          message: 'versions and version go together',
        });
      } else if (message.versions && message.versions[message.version! - 1]?.content !== message.content) {
        issues.addIssue({
          code: 'custom',
          path: ['messages', i, 'version'],
          message: 'the version shown must be one of the versions, with the same content',
        });
      }
    }
    for (const [i, fact] of (file.bible ?? []).entries())
      if (fact.message >= file.messages.length)
        issues.addIssue({
          code: 'custom',
          path: ['bible', i, 'message'],
          message: 'names a message the file does not hold',
        });
    if (file.story.memoryCovers > file.messages.length)
      issues.addIssue({
        code: 'custom',
        path: ['story', 'memoryCovers'],
        message: 'covers more messages than the file holds',
      });
  });
export type StoryFile = z.infer<typeof storyFileSchema>;

export const storyExportQuerySchema = z.object({
  format: z.enum(STORY_EXPORT_FORMATS, { error: STORY_FILE_MESSAGES.formatInvalid }),
});

export const storyImportResponseSchema = z.object({ storyId: z.number().int().positive(), title: z.string() });
export type StoryImportResponse = z.infer<typeof storyImportResponseSchema>;
