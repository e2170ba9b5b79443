// The player's ad settings: showOnLoading, showInChat, messageFrequency (1-10) and
// currentFrequencyLevel, persisted under the ad-settings key as device settings (logout keeps
// them). Kept outside React so the drawer's section, the chat and the loading screen share one
// copy; stored values are validated, and anything unreadable falls back to the defaults.
import { useSyncExternalStore } from 'react';
import { z } from 'zod';
import {
  AD_FREQUENCY_LEVEL_MAX,
  AD_FREQUENCY_LEVEL_START,
  AD_MESSAGE_FREQUENCY_DEFAULT,
  AD_MESSAGE_FREQUENCY_MAX,
  AD_MESSAGE_FREQUENCY_MIN,
} from '@shared/constants';
import { readJson, writeItem } from '@client/lib/storage';
import { LOCAL_STORAGE_KEYS } from '@client/lib/storage-keys';

export interface AdSettings {
  showOnLoading: boolean;
  showInChat: boolean;
  messageFrequency: number;
  currentFrequencyLevel: number;
}

export const DEFAULT_AD_SETTINGS: AdSettings = {
  showOnLoading: true,
  showInChat: true,
  messageFrequency: AD_MESSAGE_FREQUENCY_DEFAULT,
  currentFrequencyLevel: AD_FREQUENCY_LEVEL_START,
};

const int = (min: number, max: number) => z.number().int().min(min).max(max);
// Each field is read on its own, so one bad value does not throw away the others.
const storedSchema = z.object({
  showOnLoading: z.boolean().catch(DEFAULT_AD_SETTINGS.showOnLoading),
  showInChat: z.boolean().catch(DEFAULT_AD_SETTINGS.showInChat),
  messageFrequency: int(AD_MESSAGE_FREQUENCY_MIN, AD_MESSAGE_FREQUENCY_MAX).catch(DEFAULT_AD_SETTINGS.messageFrequency),
  currentFrequencyLevel: int(AD_FREQUENCY_LEVEL_START, AD_FREQUENCY_LEVEL_MAX).catch(
    DEFAULT_AD_SETTINGS.currentFrequencyLevel,
  ),
});

export function readAdSettings(): AdSettings {
  const parsed = storedSchema.safeParse(readJson(LOCAL_STORAGE_KEYS.adSettings) ?? {});
  return parsed.success ? parsed.data : DEFAULT_AD_SETTINGS;
}

let current: AdSettings | null = null;
const listeners = new Set<() => void>();

function snapshot(): AdSettings {
  current ??= readAdSettings();
  return current;
}

export const adSettingsStore = {
  get: snapshot,
  update(change: Partial<AdSettings>): void {
    const next = { ...snapshot(), ...change };
    const unchanged = (Object.keys(next) as Array<keyof AdSettings>).every((key) => next[key] === current?.[key]);
    if (unchanged) return;
    current = next;
    writeItem(LOCAL_STORAGE_KEYS.adSettings, JSON.stringify(next));
    listeners.forEach((listener) => listener());
  },
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  /** Tests: forget the cached copy so the next read comes from storage. */
  reload(): void {
    current = null;
  },
};

export function useAdSettings(): AdSettings {
  return useSyncExternalStore(adSettingsStore.subscribe, adSettingsStore.get, adSettingsStore.get);
}
