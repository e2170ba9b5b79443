// The one narrator interface every provider implements (builtin, OpenAI-compatible, Anthropic).
// A request carries the assembled prompt for real models and the structured task the offline
// narrator works from; a provider either finishes normally or throws a NarratorError.
import type { LlmProviderId } from '@server/kernel/config';
import type { Preferences } from '@shared/schemas/preferences';

/** The player's preferences the offline narrator writes to (real models read them in the system prompt). */
export type NarratorVoicePreferences = Pick<Preferences, 'contentRating' | 'narrativeStyle' | 'languageStyle'>;

export interface ChatMessage {
  role: 'user' | 'assistant';
  content: string;
}

export interface TurnRecord {
  role: 'user' | 'assistant';
  content: string;
}

/** A turn a summary folds: as the transcript shows it, with its story turn where known. */
export interface SummaryTurn extends TurnRecord {
  turn?: number;
}

/** What is being asked, in the form the offline narrator needs (real models read the prompt). */
export type NarratorTask =
  | {
      kind: 'turn';
      storyId: number;
      turn: number;
      attempt: number;
      premise: string;
      action: string;
      recent: TurnRecord[];
      preferences: NarratorVoicePreferences;
    }
  /** The turns to fold into a new chunk of the memory (`memory`: the chunks before it, context only), each with its story turn (the facts of the story bible name it). */
  | { kind: 'summary'; memory: string; turns: SummaryTurn[]; maxTokens: number }
  /** The oldest chunks of the memory, merged into one (memory-chunks.ts). */
  | { kind: 'compact'; parts: string[]; maxTokens: number }
  | { kind: 'title'; premise: string; opening: string }
  /** The visual style sheet: the player's look (when `describePlayer`) and the named characters of `scene` not in `known`, as JSON. */
  | { kind: 'style'; premise: string; scene: string; known: string[]; describePlayer: boolean };

export interface GenerationRequest {
  system: string;
  messages: ChatMessage[];
  maxOutputTokens: number;
  temperature: number;
  task: NarratorTask;
  /**
   * The backend's own anti-repetition samplers, asked for by the loop guard's second call where the
   * backend has them (OpenAI-compatible: frequency_penalty, and DRY when opted in); others ignore it.
   */
  repetition?: { frequencyPenalty: number; dry: boolean };
}

/** Token counts as the provider reported them; undefined where it reported nothing. */
export interface GenerationUsage {
  /** Every input token, cached ones included. */
  inputTokens: number | undefined;
  outputTokens: number | undefined;
  /** The part of the input read from the provider's prompt cache, when it reports one. */
  cachedInputTokens?: number;
}

export interface GenerationResult {
  text: string;
  usage: GenerationUsage;
}

export interface NarratorProvider {
  readonly id: LlmProviderId;
  readonly model: string;
  /** The catalogue narrator this provider writes as (its ledger rows name it); unset outside the catalogue. */
  readonly narrator?: string;
  /**
   * Generates a reply. With `onDelta` the text is streamed piece by piece as it arrives. Resolves
   * only when the provider finished normally; any failure (including a stream that just stops)
   * rejects with a NarratorError, so a partial reply can never pass for a finished one.
   */
  generate(request: GenerationRequest, onDelta?: (text: string) => void): Promise<GenerationResult>;
}

export type NarratorFailure = 'timeout' | 'unavailable' | 'misconfigured';

export class NarratorError extends Error {
  constructor(
    public readonly failure: NarratorFailure,
    /** For the server log only: never sent to a client. */
    public readonly detail: string,
    options?: { cause?: unknown },
  ) {
    super(`narrator ${failure}: ${detail}`, options);
    this.name = 'NarratorError';
  }
}
