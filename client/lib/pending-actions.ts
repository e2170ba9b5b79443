// What a guest asked for before being sent to log in: a story start or a story turn,
// saved in localStorage so it survives the trip through /auth. Home and story resume them; auth only
// needs their paths to know where to go next.
import { z } from 'zod';
import { GENRES } from '@shared/constants';
import { LOCAL_STORAGE_KEYS } from './storage-keys';
import { readJson, removeItem, writeItem } from './storage';

export const pendingOperationSchema = z.object({
  type: z.literal('start_story'),
  data: z.object({
    prompt: z.string(),
    genrePreferences: z.partialRecord(z.enum(GENRES), z.number().min(0).max(100)),
    isRandom: z.boolean(),
  }),
  path: z.string(),
});
export type PendingOperation = z.infer<typeof pendingOperationSchema>;

export const pendingContinuationSchema = z.object({
  type: z.literal('continue_story'),
  storyId: z.number().int().positive(),
  message: z.string(),
  path: z.string(),
});
export type PendingContinuation = z.infer<typeof pendingContinuationSchema>;

/** Invalid or tampered entries read as absent, never as a crash. */
export function readPendingOperation(): PendingOperation | null {
  const parsed = pendingOperationSchema.safeParse(readJson(LOCAL_STORAGE_KEYS.pendingOperation));
  return parsed.success ? parsed.data : null;
}

export function savePendingOperation(operation: PendingOperation): void {
  writeItem(LOCAL_STORAGE_KEYS.pendingOperation, JSON.stringify(operation));
}

export function clearPendingOperation(): void {
  removeItem(LOCAL_STORAGE_KEYS.pendingOperation);
}

export function readPendingContinuation(): PendingContinuation | null {
  const parsed = pendingContinuationSchema.safeParse(readJson(LOCAL_STORAGE_KEYS.pendingContinuation));
  return parsed.success ? parsed.data : null;
}

export function savePendingContinuation(continuation: PendingContinuation): void {
  writeItem(LOCAL_STORAGE_KEYS.pendingContinuation, JSON.stringify(continuation));
}

export function clearPendingContinuation(): void {
  removeItem(LOCAL_STORAGE_KEYS.pendingContinuation);
}
