// Shapes used by every resource: the one error body the API sends, and id parameters.
import { z } from 'zod';
import { SPEECH_ERROR_CODES } from './speech';

export const apiErrorSchema = z.object({
  message: z.string(),
  code: z.string(),
  details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  /** A failed story start still created the story (its premise is kept): retry it there. */
  storyId: z.number().int().positive().optional(),
  /** A narrator's failure (502, 504): the id of the narrator that failed. */
  narrator: z.string().optional(),
  /** A stale edit's 409: the version of the message shown now. */
  current: z.object({ version: z.number().int().positive(), content: z.string() }).optional(),
});
export type ApiError = z.infer<typeof apiErrorSchema>;

export const successSchema = z.object({ success: z.literal(true) });
export type Success = z.infer<typeof successSchema>;

/** Error codes the server sends; the client may branch on them, users read the message. */
export const ERROR_CODES = {
  validation: 'VALIDATION_ERROR',
  badJson: 'BAD_JSON',
  unauthenticated: 'UNAUTHENTICATED',
  forbidden: 'FORBIDDEN',
  notFound: 'NOT_FOUND',
  conflict: 'CONFLICT',
  captcha: 'CAPTCHA_FAILED',
  invalidCredentials: 'INVALID_CREDENTIALS',
  tooLarge: 'PAYLOAD_TOO_LARGE',
  unsupportedMediaType: 'UNSUPPORTED_MEDIA_TYPE',
  rateLimited: 'RATE_LIMITED',
  allowanceUsed: 'ALLOWANCE_USED',
  /** 429: an account quota (stories, shared links, versions of a message) is full. */
  quotaExceeded: 'QUOTA_EXCEEDED',
  /** 413: the account's stored text would pass USER_MAX_STORED_MB. */
  storageFull: 'STORAGE_FULL',
  narratorTimeout: 'NARRATOR_TIMEOUT',
  narratorUnavailable: 'NARRATOR_UNAVAILABLE',
  narratorMisconfigured: 'NARRATOR_MISCONFIGURED',
  internal: 'INTERNAL_ERROR',
  /** 503: this instance is shutting down (SIGTERM); another instance, or this one restarted, will take it. */
  unavailable: 'UNAVAILABLE',
  imagePending: 'IMAGE_PENDING',
  imageFailed: 'IMAGE_FAILED',
  imagesDisabled: 'IMAGES_DISABLED',
  ...SPEECH_ERROR_CODES,
} as const;
export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];
