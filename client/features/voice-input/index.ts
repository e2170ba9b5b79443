// The voice-input feature's door: the microphone button and how a transcript joins the typed text.
export { VoiceInputButton } from './components/voice-input-button';
export { VOICE_INPUT_STRINGS } from './strings';
export { appendTranscript } from './utils/append-transcript';
