// Builds a turn request for the builtin narrator's tests (it reads the task, not the prompt).
import { DEFAULT_PREFERENCES } from '@shared/schemas/preferences';
import type { GenerationRequest, NarratorVoicePreferences, TurnRecord } from '../types';

export function composeRequest(seed: {
  storyId: number;
  turn: number;
  attempt: number;
  premise: string;
  action: string;
  recent?: TurnRecord[];
  preferences?: NarratorVoicePreferences;
}): GenerationRequest {
  return {
    system: '',
    messages: [],
    maxOutputTokens: 500,
    temperature: 0.8,
    task: { kind: 'turn', recent: [], preferences: DEFAULT_PREFERENCES, ...seed },
  };
}
