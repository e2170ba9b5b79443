// Server voices and server transcription. A narrator reply is spoken
// sentence by sentence (shared/speech/sentences.ts splits it exactly as the browser does): each
// sentence is synthesised once per voice, kept in the database and replayed from there for free.
// A recording is checked to be real audio and sent to the transcriber. Both are the owner's only,
// paid calls limited per player per hour and counted toward the monthly allowance (allowance.ts), and
// recorded in the usage ledger by characters.
import { createHash } from 'node:crypto';
import { CONTAINER_FILES, sniffAudio } from '@server/ai/speech/audio-format';
import {
  SpeechError,
  type SttConfig,
  type SttProvider,
  type TtsConfig,
  type TtsProvider,
} from '@server/ai/speech/types';
import type { Repositories } from '@server/db/repositories';
import type { SpeechClip } from '@server/db/repositories/speech';
import { AppError } from '@server/kernel/errors';
import { ERROR_CODES } from '@shared/schemas/common';
import { SPEECH_MESSAGES, type SpeechPartParams, type TranscriptionResponse } from '@shared/schemas/speech';
import { STORY_MESSAGES } from '@shared/schemas/story';
import { splitSentences } from '@shared/speech/sentences';
import { redact } from '@server/kernel/redact';
import { expectedTranscriptionTokens, speechTokens, type Allowance } from '../limits/allowance';
import type { Log } from '@server/kernel/log';

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

/** One sentence of one reply in one voice: what the clip is looked up, cached and revalidated by. */
export interface LocatedPart {
  storyId: number;
  messageId: number;
  voice: string;
  text: string;
  textHash: string;
  /** How many parts the reply is spoken in (the X-Speech-Parts header). */
  parts: number;
  /** Strong, from the sentence and the voice: the same words in the same voice are the same clip. */
  etag: string;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

export function createSpeechService(deps: SpeechServiceDeps) {
  const { repos, tts, stt } = deps;
  const voices = tts ? [...deps.ttsConfig.voices] : [];
  /** Clips being read or made in this instance: a second request for the same one waits for the first instead of paying twice. */
  const inFlight = new Map<string, Promise<SpeechClip>>();

  /** A provider's failure as the player reads it (502, or 504 for a timeout); what happened goes to the log only. */
  function providerFailure(
    error: unknown,
    kind: 'speech' | 'transcription',
    context: Record<string, unknown>,
  ): unknown {
    if (!(error instanceof SpeechError)) return error;
    const speech = kind === 'speech';
    const provider = speech ? tts : stt;
    const apiKey = speech ? deps.ttsConfig.apiKey : deps.sttConfig.apiKey;
    deps.log.warn(
      {
        ...context,
        provider: provider?.id,
        model: provider?.model,
        failure: error.failure,
        detail: redact(error.detail, [apiKey]),
      },
      `${kind} provider call failed`,
    );
    const timeout = error.failure === 'timeout';
    const code = speech
      ? timeout
        ? ERROR_CODES.speechTimeout
        : ERROR_CODES.speechFailed
      : timeout
        ? ERROR_CODES.transcriptionTimeout
        : ERROR_CODES.transcriptionFailed;
    return new AppError(timeout ? 504 : 502, code, speech ? SPEECH_MESSAGES.speakFailed : SPEECH_MESSAGES.recordFailed);
  }

  async function synthesize(userId: number, part: LocatedPart, voice: TtsProvider): Promise<SpeechClip> {
    const hold = await deps.allowance.admit(userId, 'speech', speechTokens(part.text.length));
    try {
      return await synthesizeAndKeep(userId, part, voice);
    } finally {
      await hold.release();
    }
  }

  async function synthesizeAndKeep(userId: number, part: LocatedPart, voice: TtsProvider): Promise<SpeechClip> {
    let bytes: Uint8Array;
    let mime: string;
    try {
      // Not tied to the request: a clip the listener skipped is still kept for the next replay.
      ({ bytes, mime } = await voice.synthesize({
        text: part.text,
        voice: part.voice,
        signal: new AbortController().signal,
      }));
    } catch (error) {
      throw providerFailure(error, 'speech', { storyId: part.storyId, messageId: part.messageId, voice: part.voice });
    }
    const clip: SpeechClip = { mime, audio: Buffer.from(bytes), characters: part.text.length };
    try {
      await repos.speech.saveClip({
        ...clip,
        messageId: part.messageId,
        voice: part.voice,
        textHash: part.textHash,
        usage: {
          userId,
          storyId: part.storyId,
          kind: 'speech',
          provider: voice.id,
          model: voice.model,
          characters: clip.characters,
        },
        now: deps.now(),
      });
      // This runs under a GET, which the app does not flush for: the paid-for clip and its ledger row must be durable.
      await deps.flush();
    } catch (error) {
      // Typically the reply was replaced by a retry meanwhile; the listener still gets what was made.
      deps.log.error({ err: error, storyId: part.storyId, messageId: part.messageId }, 'could not keep a speech clip');
    }
    return clip;
  }

  /** A clip made before, or the 403 of a request that may not pay for a new one. */
  async function keptClipOnly(part: LocatedPart): Promise<SpeechClip> {
    const kept = await repos.speech.findClip(part.messageId, part.voice, part.textHash);
    if (!kept) throw new AppError(403, ERROR_CODES.forbidden, STORY_MESSAGES.crossSite);
    return kept;
  }

  return {
    /** The voices the picker offers (empty when server voices are off). */
    voices,
    /** Whether recordings are transcribed here. */
    transcription: stt !== null,

    /** Finds the sentence to speak, checking everything a request can get wrong before any audio is read or made. */
    async locatePart(userId: number, params: SpeechPartParams, voice: string): Promise<LocatedPart> {
      if (!tts) throw new AppError(503, ERROR_CODES.ttsDisabled, SPEECH_MESSAGES.ttsDisabled);
      if (!voices.includes(voice)) throw new AppError(400, ERROR_CODES.validation, SPEECH_MESSAGES.unknownVoice);
      const message = await repos.speech.findOwnedMessage(userId, params.storyId, params.messageId);
      if (!message) throw new AppError(404, ERROR_CODES.notFound, SPEECH_MESSAGES.messageNotFound);
      if (message.role !== 'assistant') throw new AppError(400, ERROR_CODES.validation, SPEECH_MESSAGES.notNarration);
      const sentences = splitSentences(message.content);
      const text = sentences[params.part];
      if (text === undefined) throw new AppError(404, ERROR_CODES.notFound, SPEECH_MESSAGES.partNotFound);
      const textHash = sha256(text);
      const etag = `"${sha256(`${voice}\n${textHash}`).slice(0, 32)}"`;
      return { storyId: params.storyId, messageId: message.id, voice, text, textHash, parts: sentences.length, etag };
    },

    /**
     * The part's audio: kept from before (no provider call, no ledger row, no limit counted), or made now.
     * `mayPay` false (a GET another site's page could have made) answers a kept clip only: 403 otherwise.
     */
    clipFor(userId: number, part: LocatedPart, mayPay: boolean): Promise<SpeechClip> {
      if (!tts) throw new AppError(503, ERROR_CODES.ttsDisabled, SPEECH_MESSAGES.ttsDisabled);
      if (!mayPay) return keptClipOnly(part);
      const key = `${part.messageId}\n${part.voice}\n${part.textHash}`;
      const running = inFlight.get(key);
      if (running) return running;
      const pending = (async () =>
        (await repos.speech.findClip(part.messageId, part.voice, part.textHash)) ??
        synthesize(userId, part, tts))().finally(() => inFlight.delete(key));
      inFlight.set(key, pending);
      return pending;
    },

    /** Throws the 503 when transcription is off: checked before a recording's body is read. */
    requireTranscription(): void {
      if (!stt) throw new AppError(503, ERROR_CODES.sttDisabled, SPEECH_MESSAGES.sttDisabled);
    },

    async transcribe(userId: number, audio: Buffer): Promise<TranscriptionResponse> {
      if (!stt) throw new AppError(503, ERROR_CODES.sttDisabled, SPEECH_MESSAGES.sttDisabled);
      if (audio.length === 0) throw new AppError(400, ERROR_CODES.validation, SPEECH_MESSAGES.emptyRecording);
      const container = sniffAudio(audio);
      if (!container) throw new AppError(415, ERROR_CODES.unsupportedMediaType, SPEECH_MESSAGES.audioType);
      const hold = await deps.allowance.admit(userId, 'transcription', expectedTranscriptionTokens(audio.length));
      try {
        let text: string;
        try {
          // The file is named after what the bytes are, whatever the header claimed: servers choose the decoder by its extension.
          ({ text } = await stt.transcribe({
            audio,
            ...CONTAINER_FILES[container],
            signal: new AbortController().signal,
          }));
        } catch (error) {
          throw providerFailure(error, 'transcription', { userId, bytes: audio.length, container });
        }
        const transcript = text.trim();
        await repos.usage.record({
          userId,
          storyId: null,
          kind: 'transcription',
          provider: stt.id,
          model: stt.model,
          characters: transcript.length,
          createdAt: deps.now(),
        });
        return { text: transcript };
      } finally {
        await hold.release();
      }
    },
  };
}
export type SpeechService = ReturnType<typeof createSpeechService>;
