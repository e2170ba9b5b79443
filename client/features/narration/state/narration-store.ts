// Narration state kept outside React (like the story store), so the drawer's 'Narrator Voice'
// section and the story page's hook share one truth: on or off, the voices on offer, the chosen
// voice, whether there is a reply to read, and the status of the reading (idle, playing, paused).
// Only the narrator (narrator.ts) writes to it; components read it with useNarrationState().
import { useSyncExternalStore } from 'react';
import { effectiveVoice, type VoiceChoice, type VoiceLike } from '../utils/voices';

export type NarrationStatus = 'idle' | 'playing' | 'paused';

export interface NarrationState {
  enabled: boolean;
  /** The stored choice; null = the preferred voice. */
  choice: VoiceChoice | null;
  /** The browser's voices, sorted (English first, then by name); empty until the browser lists them. */
  browserVoices: VoiceLike[];
  /** The server's voice names (GET /api/features); empty when the server has none. */
  serverVoices: string[];
  /** window.speechSynthesis exists. */
  browserSupported: boolean;
  /** The reader's language (navigator.language), the tie-break between equally preferred voices. */
  readerLang: string | undefined;
  status: NarrationStatus;
  /** The story on screen has a narrator reply that Play can read. */
  hasReply: boolean;
}

export const initialNarrationState: NarrationState = {
  enabled: false,
  choice: null,
  browserVoices: [],
  serverVoices: [],
  browserSupported: false,
  readerLang: undefined,
  status: 'idle',
  hasReply: false,
};

export interface NarrationStore {
  getState(): NarrationState;
  setState(patch: Partial<NarrationState>): void;
  subscribe(listener: () => void): () => void;
}

export function createNarrationStore(initial: NarrationState = initialNarrationState): NarrationStore {
  let state = initial;
  const listeners = new Set<() => void>();
  return {
    getState: () => state,
    setState(patch) {
      let changed = false;
      for (const key of Object.keys(patch) as Array<keyof NarrationState>) {
        if (!Object.is(patch[key], state[key])) changed = true;
      }
      if (!changed) return;
      state = { ...state, ...patch };
      listeners.forEach((listener) => listener());
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export function useNarrationState(store: NarrationStore): NarrationState {
  return useSyncExternalStore(store.subscribe, store.getState, store.getState);
}

/** The voice narration speaks with now (see effectiveVoice); a browser choice counts only where the browser can speak. */
export function selectedVoice(state: NarrationState): VoiceChoice | null {
  const choice = state.choice?.source === 'browser' && !state.browserSupported ? null : state.choice;
  return effectiveVoice(choice, state.browserVoices, state.serverVoices, state.readerLang);
}

/** Anything can speak here: the browser, or the server's voices. */
export function canSpeak(state: NarrationState): boolean {
  return state.browserSupported || state.serverVoices.length > 0;
}
