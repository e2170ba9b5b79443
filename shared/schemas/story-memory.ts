// The story memory panel (issue 12): what the narrator works from besides the recent turns. The
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
  fieldRequired: 'Premise, memory and notes are all required (send an empty text to clear one).',
} as const;

export const storyMemorySchema = z.object({
  premise: z.string(),
  /** The summary of the turns folded so far; empty until the story outgrows the narrator's window. */
  summary: z.string(),
  notes: z.string(),
});
export type StoryMemory = z.infer<typeof storyMemorySchema>;

export const storyMemoryBodySchema = z.object({
  premise: z
    .string({ error: STORY_MEMORY_MESSAGES.premiseRequired })
    .trim()
    .min(1, STORY_MEMORY_MESSAGES.premiseRequired)
    .max(STORY_PREMISE_MAX_LENGTH, STORY_MEMORY_MESSAGES.premiseTooLong),
  summary: z
    .string({ error: STORY_MEMORY_MESSAGES.fieldRequired })
    .trim()
    .max(STORY_SUMMARY_MAX_LENGTH, STORY_MEMORY_MESSAGES.summaryTooLong),
  notes: z
    .string({ error: STORY_MEMORY_MESSAGES.fieldRequired })
    .trim()
    .max(STORY_NOTES_MAX_LENGTH, STORY_MEMORY_MESSAGES.notesTooLong),
});
export type StoryMemoryBody = z.infer<typeof storyMemoryBodySchema>;
