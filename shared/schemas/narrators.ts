// GET /api/narrators: the narrators a caller may pick for a story (the operator's catalogue,
// NARRATORS_FILE). Visitors and players see those open to everyone, admins every one. Names and
// windows only: an address, a key's variable or a price never leaves the server.
import { z } from 'zod';

export const narratorSummarySchema = z.object({
  /** Stable: stories, exports and the admin's figures name the narrator by it. */
  id: z.string(),
  label: z.string(),
  description: z.string(),
  /** The model's context window, in tokens: how much of a story it can keep in view. */
  contextTokens: z.number().int().positive(),
  /** True for the narrator of a story that names none. */
  default: z.boolean(),
});
export type NarratorSummary = z.infer<typeof narratorSummarySchema>;

export const narratorsResponseSchema = z.object({ narrators: z.array(narratorSummarySchema) });
export type NarratorsResponse = z.infer<typeof narratorsResponseSchema>;

/** A narrator's id, as the catalogue file writes it: 1-40 of lower case, digits, - and _. */
export const NARRATOR_ID_PATTERN = /^[a-z0-9][a-z0-9_-]{0,39}$/;

/** A narrator id as a request names it. */
export const narratorIdSchema = z.string().trim().regex(NARRATOR_ID_PATTERN, 'Unknown narrator');

/**
 * The kinds of call (the usage ledger's) a catalogue narrator makes: its rows are priced with that
 * narrator's prices and counted under it. Pictures, voices and embeddings are no narrator's.
 */
export const NARRATOR_CALL_KINDS: readonly string[] = ['turn', 'retry-loop', 'summary', 'title', 'style'];

export const NARRATOR_MESSAGES = {
  /** A story or a preference naming a narrator the caller may not pick; the allowed ids follow. */
  unknown: (allowed: string[]) => `Unknown narrator. Choose one of: ${allowed.join(', ')}.`,
} as const;
