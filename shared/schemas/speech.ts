// Server voices and server transcription. A narrator reply is
// spoken in parts, one sentence group each (shared/speech/sentences.ts splits it the same way on
// both sides): GET /api/story/{storyId}/messages/{messageId}/speech/{part}?voice=NAME answers the
// part's MP3 audio and, in the X-Speech-Parts header, how many parts the reply has. A recording is
// POSTed as raw audio to /api/speech/transcriptions and answers {text}.
import { z } from 'zod';

export const SPEECH_MESSAGES = {
  /** Verbatim: what the player sees when speaking or recording fails. */
  speakFailed: 'Failed to speak the text. Please try again.',
  recordFailed: 'Failed to record audio. Please try again.',
  ttsDisabled: 'Server voices are turned off on this server.',
  sttDisabled: 'Server transcription is turned off on this server.',
  unknownVoice: 'Choose one of the voices this server offers.',
  messageNotFound: 'Message not found',
  notNarration: "Only the narrator's replies can be read aloud.",
  partNotFound: 'That part of the reply does not exist.',
  tooManySpeech: 'You have asked for too much narration this hour. Please wait a little before listening again.',
  tooManyRecordings: 'You have sent too many recordings this hour. Please wait a little before speaking again.',
  audioType: 'Send the recording as WebM, Ogg, MP4, MPEG or WAV audio.',
  audioTooLarge: 'A recording can be at most 10 MB.',
  emptyRecording: 'The recording was empty. Please try again.',
  ttsUnavailable: 'The voice service is unavailable right now.',
  sttUnavailable: 'The transcription service is unavailable right now.',
} as const;

export const SPEECH_ERROR_CODES = {
  ttsDisabled: 'TTS_DISABLED',
  sttDisabled: 'STT_DISABLED',
  /** The voice service failed (502) or took too long (504); the player reads speakFailed either way. */
  speechFailed: 'SPEECH_FAILED',
  speechTimeout: 'SPEECH_TIMEOUT',
  /** The transcription service failed (502) or took too long (504); the player reads recordFailed. */
  transcriptionFailed: 'TRANSCRIPTION_FAILED',
  transcriptionTimeout: 'TRANSCRIPTION_TIMEOUT',
} as const;

/** A recording is at most 60 s (the browser stops it) and 10 MB (the server refuses more). */
export const MAX_RECORDING_MS = 60_000;
export const MAX_RECORDING_BYTES = 10 * 1024 * 1024;
/** Audio types a recording may be sent as (MediaRecorder gives webm in Chromium and Firefox, mp4 in Safari). */
export const RECORDING_MIME_TYPES = [
  'audio/webm',
  'audio/ogg',
  'audio/mp4',
  'audio/mpeg',
  'audio/wav',
  'audio/x-wav',
  'audio/wave',
] as const;
/** The response header naming how many parts a reply is spoken in. */
export const SPEECH_PARTS_HEADER = 'x-speech-parts';

const idParam = (message: string) =>
  z
    .string({ error: message })
    .regex(/^\d{1,15}$/, message)
    .transform(Number);

export const speechPartParamsSchema = z.object({
  storyId: idParam(SPEECH_MESSAGES.messageNotFound),
  messageId: idParam(SPEECH_MESSAGES.messageNotFound),
  part: z
    .string({ error: SPEECH_MESSAGES.partNotFound })
    .regex(/^\d{1,4}$/, SPEECH_MESSAGES.partNotFound)
    .transform(Number),
});
export type SpeechPartParams = z.infer<typeof speechPartParamsSchema>;

export const speechQuerySchema = z.object({
  voice: z
    .string({ error: SPEECH_MESSAGES.unknownVoice })
    .trim()
    .min(1, SPEECH_MESSAGES.unknownVoice)
    .max(100, SPEECH_MESSAGES.unknownVoice),
});
export type SpeechQuery = z.infer<typeof speechQuerySchema>;

export const transcriptionResponseSchema = z.object({ text: z.string() });
export type TranscriptionResponse = z.infer<typeof transcriptionResponseSchema>;
