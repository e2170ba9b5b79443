// Narration settings kept per browser (text-to-speech enabled, selected voice):
// on or off and the chosen voice, under LOCAL_STORAGE_KEYS.narrationSettings. Voices belong to the
// browser, so this is a device setting and logout keeps it. What is read is validated field by
// field: an unreadable field falls back to its default (off; voice null = the preferred voice)
// without losing the other.
import { z } from 'zod';
import { readJson, writeItem } from '@client/lib/storage';
import { LOCAL_STORAGE_KEYS } from '@client/lib/storage-keys';
import type { VoiceChoice } from '../utils/voices';

const voiceChoiceSchema = z.object({
  name: z.string().trim().min(1).max(200),
  lang: z.string().max(35),
  source: z.enum(['browser', 'server']),
});

const narrationSettingsSchema = z.object({
  enabled: z.boolean().catch(false),
  voice: voiceChoiceSchema.nullable().catch(null),
});

export interface NarrationSettings {
  enabled: boolean;
  /** Null: the preferred voice of the spec's rule. */
  voice: VoiceChoice | null;
}

export const DEFAULT_NARRATION_SETTINGS: NarrationSettings = { enabled: false, voice: null };

export function parseNarrationSettings(value: unknown): NarrationSettings {
  if (typeof value !== 'object' || value === null) return DEFAULT_NARRATION_SETTINGS;
  const parsed = narrationSettingsSchema.safeParse(value);
  return parsed.success ? parsed.data : DEFAULT_NARRATION_SETTINGS;
}

export function readNarrationSettings(): NarrationSettings {
  return parseNarrationSettings(readJson(LOCAL_STORAGE_KEYS.narrationSettings));
}

export function writeNarrationSettings(settings: NarrationSettings): void {
  writeItem(LOCAL_STORAGE_KEYS.narrationSettings, JSON.stringify({ enabled: settings.enabled, voice: settings.voice }));
}
