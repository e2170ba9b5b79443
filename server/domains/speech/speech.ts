// Server voices and server transcription. A narrator reply is spoken
// sentence by sentence (shared/speech/sentences.ts splits it exactly as the browser does): each
// sentence is synthesised once per voice, kept in the database and replayed from there for free.
// A recording is checked to be real audio and sent to the transcriber. Both are the owner's only,
// paid calls limited per player per hour and counted toward the monthly allowance (allowance.ts), and
// recorded in the usage ledger by characters. The use cases are speech-parts.ts, speech-clips.ts and
// transcribe.ts; this door refuses with 503 what is switched off before handing them the call.
import type { SttConfig, SttProvider, TtsConfig, TtsProvider } from '@server/ai/speech/types';
import type { Repositories } from '@server/db/repositories';
import type { SpeechClip } from '@server/db/repositories/speech';
import { DomainError } from '@server/kernel/errors';
import type { Log } from '@server/kernel/log';
import { ERROR_CODES } from '@shared/schemas/common';
import { SPEECH_MESSAGES, type SpeechPartParams, type TranscriptionResponse } from '@shared/schemas/speech';
import type { Allowance } from '../limits/allowance';
import { createClipSource, keptClipOnly } from './speech-clips';
import { locatePart, ttsDisabled, type LocatedPart } from './speech-parts';
import { transcribe } from './transcribe';

export type { LocatedPart } from './speech-parts';

export interface SpeechServiceDeps {
  repos: Repositories;
  /** Null when TTS_PROVIDER is none: narration stays with the browser's voices and the route answers 503. */
  tts: TtsProvider | null;
  /** Null when STT_PROVIDER is none. */
  stt: SttProvider | null;
  ttsConfig: Pick<TtsConfig, 'voices' | 'apiKey'>;
  sttConfig: Pick<SttConfig, 'apiKey'>;
  /** Speech and transcription are paid calls: the player's hour and month (as allowance tokens: see allowance.ts). */
  allowance: Pick<Allowance, 'admit'>;
  now: () => Date;
  flush: () => Promise<void>;
  log: Log;
}

const sttDisabled = () => new DomainError('unavailable', ERROR_CODES.sttDisabled, SPEECH_MESSAGES.sttDisabled);

export function createSpeechService(deps: SpeechServiceDeps) {
  const { repos, tts, stt } = deps;
  const voices = tts ? [...deps.ttsConfig.voices] : [];
  const clipSource = tts && createClipSource({ ...deps, tts, apiKey: deps.ttsConfig.apiKey });

  return {
    /** The voices the picker offers (empty when server voices are off). */
    voices,
    /** Whether recordings are transcribed here. */
    transcription: stt !== null,

    /** Finds the sentence to speak, checking everything a request can get wrong before any audio is read or made. */
    locatePart: (userId: number, params: SpeechPartParams, voice: string): Promise<LocatedPart> =>
      locatePart({ repos, tts, voices }, userId, params, voice),

    /**
     * The part's audio: kept from before (no provider call, no ledger row, no limit counted), or made now.
     * `mayPay` false (a GET another site's page could have made) answers a kept clip only: 403 otherwise.
     */
    clipFor(userId: number, part: LocatedPart, mayPay: boolean): Promise<SpeechClip> {
      if (!clipSource) throw ttsDisabled();
      if (!mayPay) return keptClipOnly(repos, part);
      return clipSource(userId, part);
    },

    /** Throws the 503 when transcription is off: checked before a recording's body is read. */
    requireTranscription(): void {
      if (!stt) throw sttDisabled();
    },

    async transcribe(userId: number, audio: Buffer): Promise<TranscriptionResponse> {
      if (!stt) throw sttDisabled();
      return transcribe({ ...deps, stt, apiKey: deps.sttConfig.apiKey }, userId, audio);
    },
  };
}
export type SpeechService = ReturnType<typeof createSpeechService>;
