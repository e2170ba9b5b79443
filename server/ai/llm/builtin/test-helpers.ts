// Builds a turn request for the builtin narrator's tests (it reads the task, not the prompt).
import type { GenerationRequest } from '../types';

export function composeRequest(seed: {
  storyId: number;
  turn: number;
  attempt: number;
  premise: string;
  action: string;
}): GenerationRequest {
  return {
    system: '',
    messages: [],
    maxOutputTokens: 500,
    temperature: 0.8,
    task: { kind: 'turn', ...seed, recent: [] },
  };
}
