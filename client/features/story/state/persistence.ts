// The current story kept in localStorage ('Other local storage'): messages,
// storyId, storyImage and prompt, so a reload or a later visit to /story finds it again. Saved
// between turns, never per streamed word; unreadable entries count as absent.
import { z } from 'zod';
import { readJson, removeItem, writeItem } from '@client/lib/storage';
import { LOCAL_STORAGE_KEYS } from '@client/lib/storage-keys';
import { loopGuardMarkSchema, replyUsageSchema } from '@shared/schemas/story';
import { scenePictureSchema } from '@client/features/images';
import type { LocalStoryMessage, StoryState } from './story-state';

const savedMessageSchema = z.object({
  id: z.string().min(1),
  messageId: z.number().int().positive().optional(),
  role: z.enum(['user', 'assistant', 'image']),
  content: z.string(),
  isInitialMessage: z.boolean().optional(),
  createdAt: z.string().optional(),
  image: z.string().optional(),
  picture: scenePictureSchema.optional(),
  version: z.number().int().positive().optional(),
  versions: z.number().int().positive().optional(),
  loopGuard: loopGuardMarkSchema.optional(),
  usage: replyUsageSchema.optional(),
});

const savedStorySchema = z.object({
  ownerId: z.number().int().positive().nullable().optional(),
  storyId: z.number().int().positive().nullable(),
  messages: z.array(savedMessageSchema),
  storyImage: z.string().nullable().optional(),
  prompt: z.string().nullable().optional(),
});

export interface SavedStory {
  ownerId: number | null;
  storyId: number | null;
  messages: LocalStoryMessage[];
  storyImage: string | null;
  prompt: string | null;
}

export function saveStory(state: StoryState): void {
  // A rewrite in progress is never kept: a reload reads the reply the server saved.
  const messages = state.messages.filter((m) => !m.isNotice).map(({ rewriting: _rewriting, ...m }) => m);
  if (state.storyId === null && messages.length === 0) return;
  const saved: SavedStory = {
    ownerId: state.ownerId,
    storyId: state.storyId,
    messages,
    storyImage: state.storyImage,
    prompt: state.prompt,
  };
  writeItem(LOCAL_STORAGE_KEYS.currentStory, JSON.stringify(saved));
}

export function loadSavedStory(): SavedStory | null {
  const parsed = savedStorySchema.safeParse(readJson(LOCAL_STORAGE_KEYS.currentStory));
  if (!parsed.success) return null;
  const { ownerId, storyId, messages, storyImage, prompt } = parsed.data;
  return { ownerId: ownerId ?? null, storyId, messages, storyImage: storyImage ?? null, prompt: prompt ?? null };
}

export function clearSavedStory(): void {
  removeItem(LOCAL_STORAGE_KEYS.currentStory);
}
