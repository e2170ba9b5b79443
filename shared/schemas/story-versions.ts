// The player in control of a story's messages: every message keeps its versions (the
// words as first written, the narrator's alternatives from 'Try again', the owner's edits, a new
// action that replaced an unanswered one) and shows one of them; undo and erase set turns aside
// (redo brings them back); a branch copies the story up to a message into a new story.
import { z } from 'zod';
import { STORY_ACTION_MAX_LENGTH, STORY_PREMISE_MAX_LENGTH, STORY_TITLE_MAX_LENGTH } from '../constants';
import { numericId, replyUsageSchema, STORY_MESSAGES } from './story';

/** A narrator reply's text as the owner may edit it (a reply is rarely over 5,000 characters). */
export const STORY_REPLY_MAX_LENGTH = 20_000;

export const STORY_VERSION_MESSAGES = {
  contentRequired: 'Please enter the text.',
  contentTooLong: `The text must be at most ${STORY_REPLY_MAX_LENGTH.toLocaleString('en-US')} characters.`,
  actionTooLong: `Your action must be at most ${STORY_ACTION_MAX_LENGTH} characters.`,
  premiseTooLong: `Your scenario must be at most ${STORY_PREMISE_MAX_LENGTH} characters.`,
  staleEdit:
    'This message was changed in another tab. Its current text is shown: make your change again if you still want it.',
  versionNotFound: 'That version does not exist.',
  versionInvalid: 'Version must be a whole number from 1',
  nothingToUndo: 'There is no turn to take back.',
  nothingToRedo: 'There is nothing to redo.',
  openingKept: 'The opening of the story cannot be erased.',
  messageIdInvalid: 'Message id must be a number',
} as const;

/** How a version came to be. */
export const MESSAGE_VERSION_KINDS = ['original', 'alternative', 'edit', 'replacement'] as const;
export const messageVersionKindSchema = z.enum(MESSAGE_VERSION_KINDS);
export type MessageVersionKind = z.infer<typeof messageVersionKindSchema>;

export const messageParamsSchema = z.object({
  storyId: numericId(STORY_MESSAGES.storyIdInvalid),
  messageId: numericId(STORY_VERSION_MESSAGES.messageIdInvalid),
});
export type MessageParams = z.infer<typeof messageParamsSchema>;

const versionNumber = z
  .number({ error: STORY_VERSION_MESSAGES.versionInvalid })
  .int(STORY_VERSION_MESSAGES.versionInvalid)
  .min(1, STORY_VERSION_MESSAGES.versionInvalid);

/** The longest text a message may hold, by what it is: the premise, an action or a narrator reply. */
export function messageTextLimit(message: { role: 'user' | 'assistant'; isInitial?: boolean }): {
  max: number;
  tooLong: string;
} {
  if (message.role === 'assistant')
    return { max: STORY_REPLY_MAX_LENGTH, tooLong: STORY_VERSION_MESSAGES.contentTooLong };
  return message.isInitial
    ? { max: STORY_PREMISE_MAX_LENGTH, tooLong: STORY_VERSION_MESSAGES.premiseTooLong }
    : { max: STORY_ACTION_MAX_LENGTH, tooLong: STORY_VERSION_MESSAGES.actionTooLong };
}

export const messageEditBodySchema = z.object({
  content: z
    .string({ error: STORY_VERSION_MESSAGES.contentRequired })
    .trim()
    .min(1, STORY_VERSION_MESSAGES.contentRequired)
    .max(STORY_REPLY_MAX_LENGTH, STORY_VERSION_MESSAGES.contentTooLong),
  /**
   * The version the edit was made from (the one the editor showed). When another tab changed the
   * message since, the edit answers 409 with the current version instead of overwriting it.
   */
  baseVersion: versionNumber.optional(),
});
export type MessageEditBody = z.infer<typeof messageEditBodySchema>;

export const messageSelectBodySchema = z.object({ version: versionNumber });
export type MessageSelectBody = z.infer<typeof messageSelectBodySchema>;

export const messageVersionSchema = z.object({
  version: z.number().int().positive(),
  kind: messageVersionKindSchema,
  content: z.string(),
  createdAt: z.string(),
});
export type MessageVersion = z.infer<typeof messageVersionSchema>;

/** GET .../messages/{id}/versions: every version, oldest first, and the one shown. */
export const messageVersionsResponseSchema = z.object({
  messageId: z.number().int().positive(),
  role: z.enum(['user', 'assistant']),
  version: z.number().int().positive(),
  versions: z.array(messageVersionSchema),
});
export type MessageVersionsResponse = z.infer<typeof messageVersionsResponseSchema>;

/** What an edit or a select answers: the message as it now shows. */
export const messageChangeResponseSchema = z.object({
  messageId: z.number().int().positive(),
  role: z.enum(['user', 'assistant']),
  content: z.string(),
  version: z.number().int().positive(),
  versions: z.number().int().positive(),
  /** The shown version's scene picture, when it has a painted one. */
  image: z.string().optional(),
  /** What the shown version of a narrator reply cost, when a chosen version has it. */
  usage: replyUsageSchema.optional(),
});
export type MessageChangeResponse = z.infer<typeof messageChangeResponseSchema>;

/** The body of a stale edit's 409: the version that is shown now. */
export const staleVersionSchema = z.object({ version: z.number().int().positive(), content: z.string() });
export type StaleVersion = z.infer<typeof staleVersionSchema>;

const positiveId = (message: string) => z.number({ error: message }).int(message).positive(message);

export const storyEraseBodySchema = z.object({ fromMessageId: positiveId(STORY_VERSION_MESSAGES.messageIdInvalid) });
export type StoryEraseBody = z.infer<typeof storyEraseBodySchema>;

export const storyBranchBodySchema = z.object({ messageId: positiveId(STORY_VERSION_MESSAGES.messageIdInvalid) });
export type StoryBranchBody = z.infer<typeof storyBranchBodySchema>;

export const storyBranchResponseSchema = z.object({ storyId: z.number().int().positive() });
export type StoryBranchResponse = z.infer<typeof storyBranchResponseSchema>;

const storyLink = z.object({ storyId: z.number().int().positive(), title: z.string().max(STORY_TITLE_MAX_LENGTH) });

/** GET /api/story/{id}/branches: the story this one was branched from (if still the owner's) and its own branches, newest first. */
export const storyFamilySchema = z.object({
  origin: storyLink.nullable(),
  branches: z.array(storyLink.extend({ createdAt: z.string() })),
});
export type StoryFamily = z.infer<typeof storyFamilySchema>;
