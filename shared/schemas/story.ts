// Request and response shapes of the story endpoints (plus retry and streaming).
// A story's messages come in story order: the premise the player typed first (role user,
// isInitialMessage true), then each narrator reply and player action.
import { z } from 'zod';
import { STORY_ACTION_MAX_LENGTH, STORY_PREMISE_MAX_LENGTH, STORY_TITLE_MAX_LENGTH } from '../constants';
import { sceneImageSchema } from './images';

export const STORY_MESSAGES = {
  promptRequired: 'Please describe your scenario.',
  promptTooLong: `Your scenario must be at most ${STORY_PREMISE_MAX_LENGTH} characters.`,
  messageRequired: 'Please describe what you would like to do.',
  messageTooLong: `Your action must be at most ${STORY_ACTION_MAX_LENGTH} characters.`,
  storyIdInvalid: 'Story id must be a number',
  messageIdInvalid: 'Message id must be a number',
  storyNotFound: 'Story not found',
  messageNotFound: 'Message not found in this story',
  busy: 'The narrator is still writing the last reply. Please wait for it to finish.',
  timeout: 'The narrator took too long to answer. Please try again.',
  unavailable: 'The narrator is unavailable right now. Please try again.',
  misconfigured: 'The narrator is not configured correctly.',
  /** The same, naming the narrator, when the operator offers several. */
  timeoutNamed: (label: string) => `The narrator ${label} took too long to answer. Please try again.`,
  unavailableNamed: (label: string) => `The narrator ${label} is unavailable right now. Please try again.`,
  misconfiguredNamed: (label: string) => `The narrator ${label} is not configured correctly.`,
  allowanceUsed: "You have used this month's story allowance.",
  tooManyTurns: 'You have asked the narrator for too many turns this hour. Please wait a little before the next one.',
  tooManySideCalls: 'The narrator has had too many requests from you this hour. Please wait a little and try again.',
  crossSite: 'Open the story in Taleweaver to do this.',
} as const;

const text = (required: string, max: number, tooLong: string) =>
  z.string({ error: required }).trim().min(1, required).max(max, tooLong);

export const storyStartBodySchema = z.object({
  prompt: text(STORY_MESSAGES.promptRequired, STORY_PREMISE_MAX_LENGTH, STORY_MESSAGES.promptTooLong),
});
export type StoryStartBody = z.infer<typeof storyStartBodySchema>;

export const storyContinueBodySchema = z.object({
  message: text(STORY_MESSAGES.messageRequired, STORY_ACTION_MAX_LENGTH, STORY_MESSAGES.messageTooLong),
});
export type StoryContinueBody = z.infer<typeof storyContinueBodySchema>;

/** A numeric path or query id (at most 15 digits), as a number. */
export const numericId = (message: string) =>
  z
    .string({ error: message })
    .regex(/^\d{1,15}$/, message)
    .transform(Number);

export const storyParamsSchema = z.object({ storyId: numericId(STORY_MESSAGES.storyIdInvalid) });
export type StoryParams = z.infer<typeof storyParamsSchema>;

export const recoverQuerySchema = z.object({ messageId: numericId(STORY_MESSAGES.messageIdInvalid).optional() });
export type RecoverQuery = z.infer<typeof recoverQuerySchema>;

/**
 * What the loop guard did to a narrator reply: 'replaced', its first answer repeated the
 * story and was written again; 'marked', the reply kept still repeats (the second answer looped too,
 * or none could be asked for).
 */
export const LOOP_GUARD_MARKS = ['replaced', 'marked'] as const;
export const loopGuardMarkSchema = z.enum(LOOP_GUARD_MARKS);
export type LoopGuardMark = z.infer<typeof loopGuardMarkSchema>;

/**
 * What a narrator reply cost: its own provider calls, the loop guard's second one
 * included. `cachedInputTokens` is the part of the input the provider read from its prompt cache,
 * present when it reports one (OpenAI's prompt_tokens_details, Anthropic's cache reads); `costUsd`
 * is the server's figure at its configured prices (LLM_PRICE_*), fixed when the reply was written.
 */
export const replyUsageSchema = z.object({
  inputTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
  cachedInputTokens: z.number().int().nonnegative().optional(),
  costUsd: z.number().nonnegative(),
  /** Provider calls the reply took: 2 when the loop guard asked once more. */
  calls: z.number().int().positive(),
});
export type ReplyUsage = z.infer<typeof replyUsageSchema>;

export const storyRoleSchema = z.enum(['user', 'assistant']);
export type StoryRole = z.infer<typeof storyRoleSchema>;

export const storyMessageSchema = z.object({
  messageId: z.number().int().positive(),
  role: storyRoleSchema,
  content: z.string(),
  createdAt: z.string(),
  isInitialMessage: z.boolean(),
  /** A narrator reply's scene picture, once painted (the full entry is in the read's `images`). */
  image: z.string().optional(),
  /** Present once the message has more than one version (alternatives, edits): the one shown and how many there are. */
  version: z.number().int().positive().optional(),
  versions: z.number().int().positive().optional(),
  /** Set on a narrator reply the loop guard acted on (its shown version). */
  loopGuard: loopGuardMarkSchema.optional(),
  /** What the shown version of a narrator reply cost; absent on replies written before it was kept. */
  usage: replyUsageSchema.optional(),
});
export type StoryMessage = z.infer<typeof storyMessageSchema>;

/** A narrator reply as start, continue and retry answer it (and as the SSE `done` event carries it). */
export const storyReplySchema = z.object({
  storyId: z.number().int().positive(),
  messageId: z.number().int().positive(),
  message: z.string(),
  /** Set when the player has scene images on: this reply's picture is being painted; poll GET /api/story/message/{id}/image. */
  imageMessageId: z.number().int().positive().optional(),
  /** Set instead when this reply's picture could not even be asked for (e.g. the hourly limit): the reason. */
  imageError: z.string().optional(),
  /** Set when the reply is one of several versions ('Try again' keeps the earlier replies): the one shown (this one) and how many. */
  version: z.number().int().positive().optional(),
  versions: z.number().int().positive().optional(),
  /** Set when the loop guard acted on this reply: 'replaced' (written again) or 'marked' (still repeats). */
  loopGuard: loopGuardMarkSchema.optional(),
  /** What this reply's calls cost. */
  usage: replyUsageSchema.optional(),
});
export type StoryReply = z.infer<typeof storyReplySchema>;

export const storyStartResponseSchema = storyReplySchema;
export type StoryStartResponse = z.infer<typeof storyStartResponseSchema>;

export const storyContinueResponseSchema = storyReplySchema;
export type StoryContinueResponse = z.infer<typeof storyContinueResponseSchema>;

export const storyStateResponseSchema = z.object({
  messages: z.array(storyMessageSchema),
  /** True while the narrator is still writing the reply to the last action (a reload mid-reply). */
  replying: z.boolean(),
  /** Every scene picture of the story, ready, pending or failed, in message order. */
  images: z.array(sceneImageSchema),
  /** The story's header picture (its opening's, else its first ready one); null when none. */
  storyImage: z.string().nullable(),
  /** True when undone or erased turns follow the story's end and redo would bring them back (absent: false). */
  canRedo: z.boolean().optional(),
});
export type StoryStateResponse = z.infer<typeof storyStateResponseSchema>;

export const storyRecoverResponseSchema = z.object({
  messages: z.array(storyMessageSchema),
  images: z.array(sceneImageSchema),
  story: z.object({ id: z.number().int().positive(), title: z.string(), storyImage: z.string().nullable() }),
});
export type StoryRecoverResponse = z.infer<typeof storyRecoverResponseSchema>;

export const storyTitleResponseSchema = z.object({ title: z.string().max(STORY_TITLE_MAX_LENGTH) });
export type StoryTitleResponse = z.infer<typeof storyTitleResponseSchema>;

/** Server-sent events of a streamed turn (Accept: text/event-stream). */
export const STORY_STREAM_EVENTS = {
  story: 'story',
  delta: 'delta',
  /** The finished reply repeated the story: the narrator is asked again (the text shown so far stays until `replace`). */
  rewriting: 'rewriting',
  /** The reply's whole text is now `text` (the loop guard's rewrite), before `done`. */
  replace: 'replace',
  done: 'done',
  error: 'error',
} as const;
/** The first event: the story the turn belongs to, so a new story has its address before any text. */
export const storyNamedEventSchema = z.object({ storyId: z.number().int().positive() });
export type StoryNamedEvent = z.infer<typeof storyNamedEventSchema>;
export const storyDeltaEventSchema = z.object({ text: z.string() });
export type StoryDeltaEvent = z.infer<typeof storyDeltaEventSchema>;
export const storyReplaceEventSchema = z.object({ text: z.string() });
export type StoryReplaceEvent = z.infer<typeof storyReplaceEventSchema>;
export const storyDoneEventSchema = storyReplySchema;
export type StoryDoneEvent = z.infer<typeof storyDoneEventSchema>;
export const storyErrorEventSchema = z.object({
  message: z.string(),
  code: z.string(),
  storyId: z.number().int().positive().optional(),
  /** A narrator's failure: the id of the narrator that failed (GET /api/narrators). */
  narrator: z.string().optional(),
});
export type StoryErrorEvent = z.infer<typeof storyErrorEventSchema>;
