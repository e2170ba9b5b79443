// The two speech interfaces every provider implements: a voice (TTS) that turns one sentence into
// MP3 audio, and a transcriber (STT) that turns one recording into text. A provider either answers
// or throws a SpeechError whose kind decides what the player is told (and whose detail only the
// server log sees).
import type { SttProviderId, TtsProviderId } from '@server/kernel/config/speech';

export {
  DEFAULT_TTS_VOICES,
  STT_PROVIDERS,
  TTS_PROVIDERS,
  type SttConfig,
  type SttProviderId,
  type TtsConfig,
  type TtsProviderId,
} from '@server/kernel/config/speech';

export interface SynthesisRequest {
  text: string;
  voice: string;
  signal: AbortSignal;
}

export interface SynthesisResult {
  /** Checked to be MP3 before it is returned. */
  bytes: Uint8Array;
  mime: 'audio/mpeg';
}

export interface TtsProvider {
  readonly id: Exclude<TtsProviderId, 'none'>;
  readonly model: string;
  synthesize(request: SynthesisRequest): Promise<SynthesisResult>;
}

export interface TranscriptionRequest {
  audio: Uint8Array;
  /** The recording's real type, from its first bytes (audio/webm, audio/ogg, …). */
  mime: string;
  /** Servers pick the decoder by the file name's extension, so it must match the bytes. */
  filename: string;
  signal: AbortSignal;
}

export interface SttProvider {
  readonly id: Exclude<SttProviderId, 'none'>;
  readonly model: string;
  transcribe(request: TranscriptionRequest): Promise<{ text: string }>;
}

/**
 * Why a speech call failed. `timeout`: no answer within the *_TIMEOUT_MS; `unavailable`: network
 * failure, 5xx or 429; `misconfigured`: 401/403/404/400 (bad key, model, voice or base URL);
 * `invalid_output`: the answer was not what was asked for (not MP3, empty, too large, not JSON).
 */
export type SpeechFailure = 'timeout' | 'unavailable' | 'misconfigured' | 'invalid_output';

export class SpeechError extends Error {
  constructor(
    public readonly failure: SpeechFailure,
    /** For the server log only: never sent to a client, never holds the key. */
    public readonly detail: string,
    options?: { cause?: unknown },
  ) {
    super(`speech ${failure}: ${detail}`, options);
    this.name = 'SpeechError';
  }
}
