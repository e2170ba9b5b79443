// Everything voice input touches outside React, in one object the hook receives: the browser
// recogniser, the recorder, the microphone check and the transcription call. Tests pass fakes.
import { transcribeAudio } from '../api/transcribe';
import { createBrowserAudioRecorder, type AudioRecorderPort } from './audio-recorder';
import { createBrowserMicrophone, type MicrophonePort } from './microphone';
import { createBrowserSpeechRecognizer, type SpeechRecognizerPort } from './speech-recognizer';

export interface VoiceInputPorts {
  /** Null where the browser has no SpeechRecognition. */
  recognizer: SpeechRecognizerPort | null;
  /** Null where the browser cannot record (no getUserMedia or no MediaRecorder). */
  recorder: AudioRecorderPort | null;
  microphone: MicrophonePort;
  transcribe(audio: Blob, options: { signal: AbortSignal }): Promise<string>;
}

/** The real browser, looked at when voice input is first used (not at import time). */
export function createBrowserVoiceInputPorts(): VoiceInputPorts {
  return {
    recognizer: createBrowserSpeechRecognizer(),
    recorder: createBrowserAudioRecorder(),
    microphone: createBrowserMicrophone(),
    transcribe: transcribeAudio,
  };
}
