// The story memory panel: what the narrator works from besides the recent turns. The
// pinned premise, the memory (the summary of folded turns) and the player's free notes, sent with
// every turn like an author's note. GET and PUT /api/story/{id}/memory; edits count from the next turn.
import { z } from 'zod';
import { STORY_PREMISE_MAX_LENGTH } from '../constants';

export const STORY_NOTES_MAX_LENGTH = 2000;
/**
 * A bound on the request, not the narrator's budget: a turn trims a memory its window cannot hold,
 * oldest sentences first, as it does a folded one (8,192 tokens of context leave the memory about
 * 900 tokens, 128k about 16,000).
 */
export const STORY_SUMMARY_MAX_LENGTH = 40_000;

export const STORY_MEMORY_MESSAGES = {
  premiseRequired: 'The premise cannot be empty.',
  premiseTooLong: `The premise must be at most ${STORY_PREMISE_MAX_LENGTH} characters.`,
  summaryTooLong: `The memory must be at most ${STORY_SUMMARY_MAX_LENGTH} characters.`,
  notesTooLong: `Notes must be at most ${STORY_NOTES_MAX_LENGTH} characters.`,
  fieldNotText: 'Premise, memory and notes must each be a text (leave one out to keep it as it is).',
} as const;

export const storyMemorySchema = z.object({
  premise: z.string(),
  /** The summary of the turns folded so far (its chunks joined by a blank line); empty until the story outgrows the narrator's window. */
  summary: z.string(),
  notes: z.string(),
  /**
   * The memory's chunks, oldest first: each fold appends one, so the narrator's prompt keeps its
   * prefix for provider caches. Optional so a client reads an answer without them as no chunks.
   */
  chunks: z.array(z.string()).optional(),
});
export type StoryMemory = z.infer<typeof storyMemorySchema>;

/**
 * The panel's save: each field absent is left as it is. A summary that differs from the memory's
 * text replaces its chunks with one chunk; the same text leaves them (and the prompt's prefix) alone.
 */
export const storyMemoryBodySchema = z.object({
  premise: z
    .string({ error: STORY_MEMORY_MESSAGES.premiseRequired })
    .trim()
    .min(1, STORY_MEMORY_MESSAGES.premiseRequired)
    .max(STORY_PREMISE_MAX_LENGTH, STORY_MEMORY_MESSAGES.premiseTooLong)
    .optional(),
  summary: z
    .string({ error: STORY_MEMORY_MESSAGES.fieldNotText })
    .trim()
    .max(STORY_SUMMARY_MAX_LENGTH, STORY_MEMORY_MESSAGES.summaryTooLong)
    .optional(),
  notes: z
    .string({ error: STORY_MEMORY_MESSAGES.fieldNotText })
    .trim()
    .max(STORY_NOTES_MAX_LENGTH, STORY_MEMORY_MESSAGES.notesTooLong)
    .optional(),
});
export type StoryMemoryBody = z.infer<typeof storyMemoryBodySchema>;
