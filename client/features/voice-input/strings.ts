// Every user-facing string of voice input, so tests and UI agree. The
// toasts are the spec's, verbatim; the button labels and spoken announcements are ours (the spec
// names only 'a microphone button').
import { SPEECH_MESSAGES } from '@shared/schemas/speech';

export const VOICE_INPUT_STRINGS = {
  /** The button's label and tooltip in each state. */
  speak: 'Speak your action',
  stop: 'Stop recording',
  starting: 'Starting the microphone…',
  transcribing: 'Transcribing your speech…',

  /** Polite live-region announcements; errors are announced by their toast instead. */
  announceRecording: 'Recording. Speak your action, then press the button again to stop.',
  announceTranscribing: 'Recording stopped. Transcribing your speech…',
  announceAdded: 'Your words were added to the action. Check them, then send.',
  announceNoSpeech: 'No speech was heard. Nothing was added.',
  announceCancelled: 'Voice input stopped.',

  /** Toasts (verbatim). */
  recognitionUnsupportedTitle: 'Speech Recognition Not Supported',
  recognitionUnsupportedText: "Your browser doesn't support speech recognition. Please try using Chrome.",
  recordingErrorTitle: 'Recording Error',
  startFailedText: 'Failed to start recording. Please try again.',
  recordFailedText: SPEECH_MESSAGES.recordFailed,
  notSupportedTitle: 'Not Supported',
  inputNotSupportedText: 'Speech input is not supported in your browser.',
  permissionTitle: 'Permission Required',
  permissionText: 'Please enable microphone access to use voice input.',
} as const;
